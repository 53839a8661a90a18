import CMicroHTTPD

/// An HTTP answer waiting to be queued on its connection.
struct HTTPReply: Sendable {
    var status: Int
    var body: [UInt8]
    var contentType: String?
    var headers: [(String, String)]
    /// A prebuilt response shared by many requests (a static document); `body` and `headers` are unused.
    var shared: SharedResponse?

    init(status: Int, body: [UInt8] = [], contentType: String? = nil, headers: [(String, String)] = []) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.headers = headers
    }

    init(status: Int, shared: SharedResponse) {
        self.init(status: status)
        self.shared = shared
    }

    static func text(_ status: Int, _ text: String, headers: [(String, String)] = []) -> HTTPReply {
        HTTPReply(
            status: status, body: Array(text.utf8), contentType: "text/plain; charset=utf-8", headers: headers)
    }

    /// Queues the reply on `connection`; must run inside that connection's access handler.
    func queue(on connection: OpaquePointer) -> MHD_Result {
        if let shared {
            return MHD_queue_response(connection, UInt32(status), shared.pointer)
        }
        let response = body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return MHD_Result.NO }
        defer { MHD_destroy_response(response) }
        if let contentType { _ = MHD_add_response_header(response, "Content-Type", contentType) }
        for (name, value) in headers { _ = MHD_add_response_header(response, name, value) }
        return MHD_queue_response(connection, UInt32(status), response)
    }
}

/// An `MHD_Response` built once and queued for many requests. libmicrohttpd reference-counts responses,
/// so destroying ours in `deinit` leaves connections still sending it unharmed.
///
/// `@unchecked Sendable`: the response is never modified after `init`, and `MHD_queue_response` takes its
/// own reference under libmicrohttpd's lock, so any thread may queue it.
final class SharedResponse: @unchecked Sendable {
    let pointer: OpaquePointer

    init?(body: [UInt8], headers: [(String, String)]) {
        let created = body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return nil }
        for (name, value) in headers { _ = MHD_add_response_header(created, name, value) }
        pointer = created
    }

    deinit { MHD_destroy_response(pointer) }
}
