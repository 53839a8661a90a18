import CMicroHTTPD
import Dispatch
import Synchronization

/// One HTTP request, from its head to libmicrohttpd's completed callback: what responders and middleware
/// read, and the transport's state of the exchange.
///
/// It lives in the connection's `*con_cls` (retained through `Unmanaged`) and is released in the completed
/// callback. Headers are read from the connection on demand, so a plain GET pays only for the ones its
/// responder reads; read them on the thread that runs the responder, before any deferral.
///
/// `@unchecked Sendable`: libmicrohttpd calls the access handler of a connection on one thread at a time,
/// so the plain stored properties are only touched serially; the one piece shared with other threads (the
/// answer of a deferred request) is behind `deferred`'s mutex. For the same reason the stored properties opt
/// out of the runtime's exclusivity checks (`@exclusivity(unchecked)`): every request paid for a dozen of them.
public final class HTTPRequest: @unchecked Sendable {
    /// A deferred request's progress. `waiting` until the responder's work completes; `suspended` once the
    /// connection was suspended; `ready` holds the answer until the access handler queues it.
    enum DeferredPhase {
        case idle
        case waiting
        case suspended
        case ready(HTTPResponse)
        case delivered
    }

    let connection: OpaquePointer
    /// Not retained: the server holds its core until every request finished (`HTTPServer.stop()` waits for
    /// them before it lets go), and a retain per request would write a cache line every thread shares.
    unowned(unsafe) let core: ServerCore
    /// The method as sent (`GET`).
    public let method: String
    /// The unescaped path, without the query.
    public let path: String
    /// The route's parameters (`{app}` of `/canopen/v1/{app}/…`), by name.
    @exclusivity(unchecked) public internal(set) var parameters: RouteParameters = .none
    /// The route that answers, and what the router decided.
    @exclusivity(unchecked) var resolution: Router.Resolution = .notFound
    /// A NUL or control character in the target (raw or `%00`), which libmicrohttpd's C strings would cut.
    let targetHoldsControlCharacters: Bool
    let startNanos: UInt64
    /// When libmicrohttpd was done with it (set by the transport before the `finished` hooks), so the log and
    /// metrics read one clock for its duration.
    @exclusivity(unchecked) var finishedNanos: UInt64 = 0
    /// The `Content-Length` header, read with the head.
    let contentLength: Int?
    /// What `routereg_mhd_read_head` found wrong with the headers (`ROUTEREG_HEAD_*` bits; 0: nothing).
    let headProblems: Int

    /// The body of a route that takes one (others' bodies are counted, not kept).
    @exclusivity(unchecked) public internal(set) var body: [UInt8] = []
    @exclusivity(unchecked) var receivedBytes = 0
    @exclusivity(unchecked) var bodyTooLarge = false
    /// The HTTP status sent, for the log and metrics.
    @exclusivity(unchecked) public internal(set) var status: Int = 0
    /// Answered already (an early refusal): later access-handler calls only drain.
    @exclusivity(unchecked) var answered = false
    /// The `handler` label of the metrics: the route's, or `other` for what no route (or no document) answers.
    @exclusivity(unchecked) public var handlerLabel: String = "other"
    /// What middleware and the responder learned beyond the HTTP (deadline, credentials, what the log
    /// line names), each under its own typed key.
    @exclusivity(unchecked) public var context = RequestContext()

    @exclusivity(unchecked) private var number: UInt64 = 0
    @exclusivity(unchecked) private var idText: String?
    @exclusivity(unchecked) private var normalizedHost: String?

    let deferred = Mutex<DeferredPhase>(.idle)
    /// Whether `deferral()` was called (set and read on the transport's thread only): an answer given now
    /// then has to close the deferral, and one never deferred need not take the lock.
    @exclusivity(unchecked) var deferralStarted = false

    init(
        connection: OpaquePointer, core: ServerCore, method: String, path: String,
        targetHoldsControlCharacters: Bool
    ) {
        self.connection = connection
        self.core = core
        self.method = method
        self.path = path
        self.targetHoldsControlCharacters = targetHoldsControlCharacters
        self.startNanos = DispatchTime.now().uptimeNanoseconds
        // One pass over the headers for the guard's checks and the declared length.
        let head = routereg_mhd_read_head(connection)
        self.headProblems = Int(head.problems)
        self.contentLength = head.content_length.flatMap { Int(String(cString: $0).trimmingSpaces) }
    }

    /// Nanoseconds from the head's arrival to the end of the exchange.
    var durationNanos: UInt64 { finishedNanos &- startNanos }

    /// A request header's value, or nil.
    public func header(_ name: String) -> String? {
        // `withCString`, not the implicit conversion: for a short name (every header name) that one copies the
        // string into a new array per call, this one onto the stack.
        name.withCString { MHD_lookup_connection_value(connection, .HEADER_KIND, $0) }.map { String(cString: $0) }
    }

    /// Whether a request header is present and its value (as libmicrohttpd keeps it) satisfies `test`, read in
    /// place: for checks on every request, which need no `String` of the value.
    public func header(_ name: String, satisfies test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard let value = name.withCString({ MHD_lookup_connection_value(connection, .HEADER_KIND, $0) }) else {
            return false
        }
        let count = strlen(value)
        return value.withMemoryRebound(to: UInt8.self, capacity: count) {
            test(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// The normalized `Host`: lower case, no port, no trailing dot (`HostName.normalize`).
    public var host: String {
        if let normalizedHost { return normalizedHost }
        let host = HostName.normalize(cString: MHD_lookup_connection_value(connection, .HEADER_KIND, "Host"))
        normalizedHost = host
        return host
    }

    /// GET or HEAD.
    public var isRead: Bool { method == "GET" || method == "HEAD" }

    /// The request's number in this process: unique, from 1 (given on first use; `StripedSequence`).
    public var requestNumber: UInt64 {
        if number == 0 { number = core.nextRequestNumber() }
        return number
    }

    /// Whether the request has a number yet (its log line then writes it).
    var hasNumber: Bool { number != 0 }

    /// The request's id (`3f2a9c1e-1b`): this process's prefix and the number in hex, also in the log line.
    public var requestID: String {
        if let idText { return idText }
        let text = core.requestID(number: requestNumber)
        idText = text
        return text
    }

    /// The id as text when something already made it (the log line writes the number otherwise).
    var madeRequestID: String? { idText }

    /// The client's numeric address, read from the connection.
    public var clientAddress: String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            buffer[0] = 0
            routereg_mhd_client_address(connection, buffer.baseAddress, buffer.count)
            return String(cString: buffer.baseAddress!)
        }
    }

    /// Begins answering later: returns the function that delivers the answer (from any thread, once; later
    /// calls are ignored). The responder then returns `.later(cancel:)`, and the connection waits without
    /// holding its thread.
    public func deferral() -> @Sendable (HTTPResponse) -> Void {
        deferralStarted = true
        deferred.withLock { $0 = .waiting }
        let core = core
        return { [self] response in core.deliver(response, to: self) }
    }

    /// Counts an answer libmicrohttpd refused to build (`routereg_http_responses_failed_total`).
    public func responseFailed() { core.responseFailed() }

    /// Takes one chunk of the upload. Bodies of routes that take none are counted, not kept.
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
        if case .route(let route) = resolution, route.takesBody {
            data.withMemoryRebound(to: UInt8.self, capacity: count) {
                body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
        return true
    }

    /// Gives the body away (the responder is done with it).
    public func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }
}

/// A request header the server refused: which one, and why (`X-Request-Timeout-Ms`: must be a whole number…).
public struct HeaderRefusal: Error, Sendable, Hashable {
    public var header: String
    public var description: String

    public init(header: String, description: String) {
        self.header = header
        self.description = description
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

extension HTTPRequest {
    /// The value of the query item `name` as libmicrohttpd decoded it (the first one), or nil.
    public func queryValue(_ name: String) -> String? {
        MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, name).map { String(cString: $0) }
    }

    /// The query's items as libmicrohttpd decoded them, in order (a valueless item has an empty value).
    public var queryItems: [(name: String, value: String)] {
        final class Items {
            var list: [(name: String, value: String)] = []
        }
        let items = Items()
        let context = Unmanaged.passUnretained(items).toOpaque()
        _ = MHD_get_connection_values(
            connection, .GET_ARGUMENT_KIND,
            { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                let items = Unmanaged<Items>.fromOpaque(cls).takeUnretainedValue()
                items.list.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                return MHD_Result.YES
            }, context)
        return items.list
    }

    /// Whether the URL has a query item (cheaper than reading them: nothing is copied).
    public var hasQuery: Bool { MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, nil, nil) > 0 }

    /// The query re-encoded as `application/x-www-form-urlencoded` text (`a=1&b=x%20y`), or "" without one.

    public var query: String {
        queryItems.map { "\(Self.formEncode($0.name))=\(Self.formEncode($0.value))" }.joined(separator: "&")
    }

    private static func formEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }
}

extension String {
    /// A one-digit hex string padded to two.
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
