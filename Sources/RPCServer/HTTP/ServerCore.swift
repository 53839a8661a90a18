import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// Everything the C callbacks need, passed to libmicrohttpd as an `Unmanaged` pointer.
///
/// Immutable after `init` apart from its counters (`inFlight`, `failedResponses`: atomics), `suspensions`
/// (mutex) and `drain` (synchronised itself).
final class ServerCore: Sendable {
    /// Connections suspended by deferred calls, so `stop()` can complete them (libmicrohttpd refuses to stop
    /// with suspended connections), and whether new ones may still be suspended.
    struct Suspensions {
        var allowed = true
        var waiting: [ObjectIdentifier: @Sendable () -> Void] = [:]
    }

    let configuration: HTTPServerConfiguration
    let dispatcher: JSONRPCDispatcher?
    let documents: (any StaticDocumentProvider)?
    let readiness: @Sendable () -> Bool
    let metrics: ServerMetrics
    let log: RequestLog
    let inFlight = Atomic<Int>(0)
    /// Replies libmicrohttpd refused to build or queue (`routereg_http_responses_failed_total`).
    let failedResponses = Atomic<Int>(0)
    let suspensions = Mutex(Suspensions())
    /// Tells a waiting `HTTPServer.stop()` that `inFlight` or `suspensions` changed.
    let drain = DrainSignal()
    /// True until the daemon stops: resumes happen under it so none reaches a stopped daemon.
    let resumeGate = Mutex(true)
    private let requestCounter = Atomic<UInt64>(0)
    /// A random prefix telling this process's ids from another's: 8 hex digits and a dash.
    private let requestIDPrefix = Array((String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 16) + "-").utf8)

    init(
        configuration: HTTPServerConfiguration, dispatcher: JSONRPCDispatcher?,
        documents: (any StaticDocumentProvider)?, readiness: @escaping @Sendable () -> Bool,
        metrics: ServerMetrics, log: RequestLog
    ) {
        self.configuration = configuration
        self.dispatcher = dispatcher
        self.documents = documents
        self.readiness = readiness
        self.metrics = metrics
        self.log = log
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A new request number (from 1).
    func nextRequestNumber() -> UInt64 { requestCounter.add(1, ordering: .relaxed).newValue }

    /// The id of request `number`: this process's prefix and the number in hex (`3f2a9c1e-1b`).
    func requestID(number: UInt64) -> String {
        // Written into one buffer: concatenating strings cost three allocations for every logged request.
        String(unsafeUninitializedCapacity: requestIDPrefix.count + 16) { writeRequestID(number, into: $0) }
    }

    /// Writes request `number`'s id into `out` (room for the prefix and 16 digits); returns its length.
    func writeRequestID(_ number: UInt64, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var at = 0
        for byte in requestIDPrefix {
            out[at] = byte
            at += 1
        }
        let digits = max(1, (64 - number.leadingZeroBitCount + 3) / 4)
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            out[at] = Self.hexDigits[Int((number >> UInt64(shift)) & 0xF)]
            at += 1
        }
        return at
    }

    /// Appends request `number`'s id, quoted, to a log line.
    private func appendRequestID(_ number: UInt64, to line: inout LogLineBuffer) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: requestIDPrefix.count + 16) { scratch in
            let count = writeRequestID(number, into: scratch)
            line.string(utf8: UnsafeBufferPointer(rebasing: scratch[..<count]))
        }
    }

    /// Appends the client's address, quoted, to a log line: the one a JSON-RPC call read already, or read
    /// from the connection now (libmicrohttpd keeps it until the request-completed callback returns).
    private static func appendClientAddress(of exchange: HTTPExchange, to line: inout LogLineBuffer) {
        guard exchange.head.remoteAddress.isEmpty else {
            line.string(exchange.head.remoteAddress)
            return
        }
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            routereg_mhd_client_address(exchange.connection, buffer.baseAddress, buffer.count)
            let length = strlen(buffer.baseAddress!)
            buffer.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: length) {
                line.string(utf8: UnsafeBufferPointer(start: $0, count: length))
            }
        }
    }

    /// The answer to a complete request, or nil when the call was deferred and the connection suspended.
    func respond(to exchange: HTTPExchange) -> HTTPReply? {
        if exchange.bodyTooLarge { return .text(413, "request body too large\n") }
        switch exchange.target {
        case .rpc: return respondRPC(exchange)
        case .healthz:
            guard exchange.isRead else { return methodNotAllowed("GET, HEAD") }
            return .text(200, "ok\n")
        case .readyz:
            guard exchange.isRead else { return methodNotAllowed("GET, HEAD") }
            return readiness() ? .text(200, "ready\n") : .text(503, "not ready\n")
        case .metrics:
            guard exchange.isRead else { return methodNotAllowed("GET, HEAD") }
            return HTTPReply(
                status: 200, body: Array(metrics.render().utf8), contentType: "text/plain; version=0.0.4; charset=utf-8"
            )
        case .other:
            return respondDocument(exchange)
        }
    }

    private func methodNotAllowed(_ allow: String) -> HTTPReply {
        .text(405, "method not allowed\n", headers: [("Allow", allow)])
    }

    private func respondDocument(_ exchange: HTTPExchange) -> HTTPReply {
        let host = HostName.normalize(exchange.head.host)
        let document: StaticDocument
        switch documents?.lookup(path: exchange.path, host: host) ?? .notFound {
        case .document(let found): document = found
        case .refused(let status, let reason): return .text(status, reason)
        }
        exchange.handlerLabel = "static"
        guard exchange.isRead else { return methodNotAllowed("GET, HEAD") }
        if let header = exchange.head.ifNoneMatch, document.matches(ifNoneMatch: header) {
            if let shared = document.notModified { return HTTPReply(status: 304, shared: shared) }
        } else if let shared = document.full {
            return HTTPReply(status: 200, shared: shared)
        }
        // libmicrohttpd refused to build the document's response (`SharedResponse`).
        responseFailed()
        return .internalError
    }

    private func respondRPC(_ exchange: HTTPExchange) -> HTTPReply? {
        guard exchange.method == "POST" else { return methodNotAllowed("POST") }
        guard Self.isJSON(exchange.head.contentType) else {
            return .text(415, "Content-Type must be application/json\n")
        }
        guard let dispatcher else { return .text(404, "not found\n") }
        let head = exchange.head
        let transport = RPCTransport(
            requestID: exchange.requestID, authorization: head.authorization, requestTimeout: head.requestTimeout,
            host: HostName.normalize(head.host), userAgent: head.userAgent, remoteAddress: head.remoteAddress)
        exchange.deferred.withLock { $0 = .waiting }
        let result = dispatcher.dispatch(body: exchange.body, transport: transport) { [self] reply in
            deliver(Self.reply(reply, requestID: exchange.requestID), to: exchange)
        }
        exchange.rpcMethods = result.methods
        exchange.body = []
        switch result.outcome {
        case .reply(let reply):
            exchange.deferred.withLock { $0 = .delivered }
            return Self.reply(reply, requestID: exchange.requestID)
        case .pending(let cancel):
            return suspendOrTake(exchange, cancel: cancel)
        }
    }

    static func reply(_ reply: RPCReply, requestID: String) -> HTTPReply {
        switch reply {
        case .json(let bytes):
            HTTPReply(status: 200, body: bytes, contentType: "application/json", headers: [("X-Request-Id", requestID)])
        case .noContent:
            HTTPReply(status: 204, headers: [("X-Request-Id", requestID)])
        }
    }

    /// `application/json`, with any parameters (`; charset=utf-8`), case-insensitive.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        if contentType == "application/json" { return true }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return String(mediaType).trimmingSpaces.lowercased() == "application/json"
    }

    /// Suspends the connection of a pending deferred call, unless its answer is already there or the server
    /// is stopping (then the call is cancelled and answered now).
    private func suspendOrTake(_ exchange: HTTPExchange, cancel: @escaping @Sendable () -> Void) -> HTTPReply? {
        enum Step {
            case reply(HTTPReply)
            case suspended
            case stopping
        }
        let step: Step = exchange.deferred.withLock { phase in
            if case .ready(let reply) = phase {
                phase = .delivered
                return .reply(reply)
            }
            let registered = suspensions.withLock { state in
                guard state.allowed else { return false }
                state.waiting[ObjectIdentifier(exchange)] = cancel
                return true
            }
            guard registered else { return .stopping }
            MHD_suspend_connection(exchange.connection)
            phase = .suspended
            return .suspended
        }
        switch step {
        case .reply(let reply): return reply
        case .suspended:
            drain.changed()
            return nil
        case .stopping:
            // The cancellation answers the call (phase is still `waiting`), so its answer is ready now.
            cancel()
            return takeDeferredReply(exchange) ?? .text(503, "shutting down\n")
        }
    }

    /// Hands a deferred call's answer to its exchange; resumes the connection if it was suspended.
    /// Later calls for the same exchange are ignored.
    func deliver(_ reply: HTTPReply, to exchange: HTTPExchange) {
        let wasSuspended = exchange.deferred.withLock { phase in
            switch phase {
            case .waiting:
                phase = .ready(reply)
                return false
            case .suspended:
                phase = .ready(reply)
                return true
            case .idle, .ready, .delivered:
                return false
            }
        }
        guard wasSuspended else { return }
        suspensions.withLock { _ = $0.waiting.removeValue(forKey: ObjectIdentifier(exchange)) }
        // No lock of ours is held while libmicrohttpd takes its own; `resumeGate` only keeps the daemon alive
        // until the resume is posted.
        resumeGate.withLock { alive in
            if alive { MHD_resume_connection(exchange.connection) }
        }
    }

    /// The answer of a resumed connection, if it has one.
    func takeDeferredReply(_ exchange: HTTPExchange) -> HTTPReply? {
        exchange.deferred.withLock { phase in
            guard case .ready(let reply) = phase else { return nil }
            phase = .delivered
            return reply
        }
    }

    /// Counts a reply libmicrohttpd refused to build or queue.
    func responseFailed() { failedResponses.add(1, ordering: .relaxed) }

    /// Called when libmicrohttpd is done with a request: metrics, the log line, and no more deliveries.
    func finished(_ exchange: HTTPExchange) {
        exchange.deferred.withLock { $0 = .delivered }
        suspensions.withLock { _ = $0.waiting.removeValue(forKey: ObjectIdentifier(exchange)) }
        inFlight.subtract(1, ordering: .relaxed)
        drain.changed()
        let nanos = DispatchTime.now().uptimeNanoseconds - exchange.startNanos
        metrics.requestFinished(handler: exchange.handlerLabel, code: exchange.status, seconds: Double(nanos) / 1e9)
        guard log.isEnabled else { return }
        log.line { line in
            line.key("ts", first: true)
            line.timestamp()
            line.key("requestId")
            if exchange.requestID.isEmpty {
                appendRequestID(exchange.requestNumber, to: &line)
            } else {
                line.string(exchange.requestID)  // A JSON-RPC call made it already.
            }
            line.key("method")
            line.string(exchange.method)
            line.key("path")
            line.string(exchange.path)
            if !exchange.rpcMethods.isEmpty {
                line.key("rpc")
                line.writeByte(UInt8(ascii: "["))
                for (index, method) in exchange.rpcMethods.enumerated() {
                    if index > 0 { line.writeByte(UInt8(ascii: ",")) }
                    line.string(method)
                }
                line.writeByte(UInt8(ascii: "]"))
            }
            line.key("status")
            line.integer(exchange.status)
            line.key("durationMs")
            line.milliseconds(nanos: nanos)
            line.key("remote")
            Self.appendClientAddress(of: exchange, to: &line)
        }
    }
}
