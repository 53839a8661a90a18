import CMicroHTTPD

/// An HTTP answer waiting to be queued on its connection.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var body: [UInt8]
    public var contentType: String?
    public var headers: [(String, String)]
    /// A prebuilt response shared by many requests (a static document); `body` and `headers` are unused.
    var shared: SharedResponse?

    public init(status: Int, body: [UInt8] = [], contentType: String? = nil, headers: [(String, String)] = []) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.headers = headers
    }

    init(status: Int, shared: SharedResponse) {
        self.init(status: status)
        self.shared = shared
    }

    /// A plain-text answer (`text/plain; charset=utf-8`).
    public static func text(_ status: Int, _ text: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, body: Array(text.utf8), contentType: "text/plain; charset=utf-8", headers: headers)
    }

    /// A plain 500, for what the server failed to answer otherwise (nothing more goes to the client).
    public static let internalError = HTTPResponse.text(500, "internal error\n")

    /// Queues the reply on `connection`; must run inside that connection's access handler. An error (400 and
    /// up) goes out with `X-Content-Type-Options: nosniff` whoever built it (`errorHeaders`).
    ///
    /// A reply libmicrohttpd will not build (it refuses a header, or memory ran out) goes out as a plain 500
    /// instead: never as a response silently missing one of its headers. When not even that can be built,
    /// or the queueing fails, the result is `.NO` and libmicrohttpd closes the connection.
    /// - Returns: libmicrohttpd's verdict and the status really queued.
    func queue(on connection: OpaquePointer) -> (result: MHD_Result, status: Int) {
        if let shared {
            return (MHD_queue_response(connection, UInt32(status), shared.pointer), status)
        }
        if let response = Self.response(body: body, contentType: contentType, headers: headers, status: status) {
            defer { MHD_destroy_response(response) }
            return (MHD_queue_response(connection, UInt32(status), response), status)
        }
        let fallback = HTTPResponse.internalError
        guard
            let response = Self.response(
                body: fallback.body, contentType: fallback.contentType, headers: [], status: fallback.status)
        else { return (MHD_Result.NO, status) }
        defer { MHD_destroy_response(response) }
        return (MHD_queue_response(connection, UInt32(fallback.status), response), fallback.status)
    }

    /// A response holding a copy of `body`, `Content-Type` (when given) and every one of `headers`, or nil
    /// (nothing leaked) when libmicrohttpd refuses: out of memory, or a header it rejects (an empty name or
    /// value, CR or LF in either, a space or tab in the name). A `status` of 400 and up adds `errorHeaders`.
    static func response(
        body: [UInt8], contentType: String? = nil, headers: [(String, String)], status: Int = 200
    ) -> OpaquePointer? {
        let created = body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return nil }
        if let contentType, !add("Content-Type", contentType, to: created) {
            MHD_destroy_response(created)
            return nil
        }
        for (name, value) in headers where !add(name, value, to: created) {
            MHD_destroy_response(created)
            return nil
        }
        if status >= 400, !headers.contains(where: { $0.0.lowercased() == "x-content-type-options" }) {
            for (name, value) in errorHeaders where !add(name, value, to: created) {
                MHD_destroy_response(created)
                return nil
            }
        }
        return created
    }

    /// What every error answer carries: error pages may hold bits of the request (a path parameter, a
    /// query), and a browser must never sniff them as HTML; the text itself stays plain.
    static let errorHeaders = [("X-Content-Type-Options", "nosniff")]

    /// `MHD_add_response_header` through `withCString`: the implicit conversion would copy each short string
    /// (most names and values) into a new array per call, this copies it onto the stack.
    private static func add(_ name: String, _ value: String, to response: OpaquePointer) -> Bool {
        name.withCString { name in
            value.withCString { MHD_add_response_header(response, name, $0) == MHD_Result.YES }
        }
    }
}

/// An `MHD_Response` built once and queued for many requests. libmicrohttpd reference-counts responses,
/// so destroying ours in `deinit` leaves connections still sending it unharmed.
///
/// `@unchecked Sendable`: the response is never modified after `init`, and `MHD_queue_response` takes its
/// own reference under libmicrohttpd's lock, so any thread may queue it.
final class SharedResponse: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Nil when libmicrohttpd refuses the body or a header (see `HTTPResponse.response`); the document is then
    /// answered 500 rather than served without that header.
    init?(body: [UInt8], headers: [(String, String)], status: Int = 200) {
        guard let created = HTTPResponse.response(body: body, headers: headers, status: status) else { return nil }
        pointer = created
    }

    deinit { MHD_destroy_response(pointer) }
}

/// A response built once and answered many times (a short link's redirect or page): libmicrohttpd's response
/// object is shared, so answering costs no allocation and no copy.
public final class PreparedResponse: Sendable {
    public let status: Int
    private let shared: SharedResponse

    /// Nil when libmicrohttpd refuses the body or a header.
    public init?(status: Int, body: [UInt8] = [], contentType: String? = nil, headers: [(String, String)] = []) {
        guard
            let shared = SharedResponse(
                body: body, headers: contentType.map { [("Content-Type", $0)] + headers } ?? headers, status: status)
        else { return nil }
        self.status = status
        self.shared = shared
    }

    /// The answer to queue.
    public var response: HTTPResponse { HTTPResponse(status: status, shared: shared) }
}
