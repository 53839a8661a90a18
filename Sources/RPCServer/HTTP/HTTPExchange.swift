import CMicroHTTPD
import Dispatch
import Synchronization

/// The state of one HTTP request from its first access-handler call to libmicrohttpd's completed callback.
///
/// It lives in the connection's `*con_cls` (retained through `Unmanaged`) and is released in the completed
/// callback.
///
/// `@unchecked Sendable`: libmicrohttpd calls the access handler of a connection on one thread at a time,
/// so the plain stored properties are only touched serially; the one piece shared with other threads (the
/// result of a deferred call) is behind `deferred`'s mutex.
final class HTTPExchange: @unchecked Sendable {
    /// Where a request is going, decided from its first line.
    enum Target {
        case rpc, healthz, readyz, metrics, other
    }

    /// A deferred (long-poll) call's progress. `waiting` until the handler completes; `suspended` once the
    /// connection was suspended; `ready` holds the answer until the access handler queues it.
    enum DeferredPhase {
        case idle
        case waiting
        case suspended
        case ready(HTTPReply)
        case delivered
    }

    let connection: OpaquePointer
    let method: String
    let path: String
    let target: Target
    /// The request's number in this process (0: neither logged nor a JSON-RPC call); its id is
    /// `ServerCore.requestID(number:)`.
    let requestNumber: UInt64
    /// The id as text, for JSON-RPC calls only (their context and `X-Request-Id`); a logged GET's line writes
    /// `requestNumber` as it goes, without making this string.
    let requestID: String
    let startNanos: UInt64
    let head: HTTPRequestHead

    var body: [UInt8] = []
    var receivedBytes = 0
    var bodyTooLarge = false
    /// The HTTP status sent, for the log and metrics.
    var status: Int = 0
    /// JSON-RPC method names of the request, for the log.
    var rpcMethods: [String] = []
    /// Answered already (an early 413): later access-handler calls only drain.
    var answered = false
    /// The `handler` label of the metrics.
    var handlerLabel: String

    /// Whether a JSON-RPC dispatch already ran, so a later access-handler call is a resumption.
    var hasDeferredCall: Bool {
        deferred.withLock {
            if case .idle = $0 { return false }
            return true
        }
    }

    /// GET or HEAD: the methods of the read-only endpoints.
    var isRead: Bool { method == "GET" || method == "HEAD" }

    let deferred = Mutex<DeferredPhase>(.idle)

    init(
        connection: OpaquePointer, method: String, path: String, requestNumber: UInt64, requestID: String,
        head: HTTPRequestHead
    ) {
        self.connection = connection
        self.method = method
        self.path = path
        self.requestNumber = requestNumber
        self.requestID = requestID
        self.head = head
        self.startNanos = DispatchTime.now().uptimeNanoseconds
        switch path {
        case "/rpc": target = .rpc
        case "/healthz", "/livez": target = .healthz
        case "/readyz": target = .readyz
        case "/metrics": target = .metrics
        default: target = .other
        }
        switch target {
        case .rpc: handlerLabel = "rpc"
        case .healthz: handlerLabel = "healthz"
        case .readyz: handlerLabel = "readyz"
        case .metrics: handlerLabel = "metrics"
        case .other: handlerLabel = "other"
        }
    }

    /// Takes one chunk of the upload. Bodies of requests that are not JSON-RPC calls are counted, not kept.
    /// Returns false when the client keeps sending far past the limit: the connection is then dropped.
    func receive(_ data: UnsafePointer<CChar>, count: Int, limit: Int) -> Bool {
        receivedBytes += count
        if receivedBytes > limit {
            if !bodyTooLarge {
                bodyTooLarge = true
                body = []
            }
            // Draining lets the 413 reach the client; past this much, the client is hostile.
            let (fourTimes, overflow) = limit.multipliedReportingOverflow(by: 4)
            return overflow || receivedBytes <= max(fourTimes, limit + (4 << 20))
        }
        if target == .rpc && method == "POST" {
            data.withMemoryRebound(to: UInt8.self, capacity: count) {
                body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
        return true
    }
}

/// The request headers the server looks at, read once on the first access-handler call.
struct HTTPRequestHead: Sendable {
    var contentType: String?
    var contentLength: Int?
    var authorization: String?
    var host: String?
    var ifNoneMatch: String?
    var requestTimeout: String?
    var userAgent: String?
    var remoteAddress: String

    /// - Parameters:
    ///   - detailed: also read what only JSON-RPC calls use (content type, authorization, timeout, user
    ///     agent); a plain document GET skips that work.
    ///   - clientAddress: also read the client's address (JSON-RPC calls; a logged GET's line reads it
    ///     from the connection as it is written).
    init(connection: OpaquePointer, detailed: Bool = true, clientAddress: Bool? = nil) {
        func header(_ name: String) -> String? {
            MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
        }
        contentLength = header("Content-Length").flatMap { Int($0.trimmingSpaces) }
        host = header("Host")
        ifNoneMatch = header("If-None-Match")
        if detailed {
            contentType = header("Content-Type")
            authorization = header("Authorization")
            requestTimeout = header("X-Request-Timeout-Ms")
            userAgent = header("User-Agent")
        }
        guard clientAddress ?? detailed else {
            remoteAddress = ""
            return
        }
        remoteAddress = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            buffer[0] = 0
            routereg_mhd_client_address(connection, buffer.baseAddress, buffer.count)
            return String(cString: buffer.baseAddress!)
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpaces: Substring {
        var s = self[...]
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
