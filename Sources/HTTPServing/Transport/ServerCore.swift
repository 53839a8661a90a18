import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization
import ThreadShards

/// Everything the C callbacks need, passed to libmicrohttpd as an `Unmanaged` pointer: the router, the
/// middleware, and the state of deferred requests and of shutdown.
///
/// Immutable after `init` apart from its counters (`inFlight`, `failedResponses`, request numbers), `suspensions`
/// (mutex) and `drain` (synchronised itself).
final class ServerCore: Sendable {
    /// Connections suspended by deferred requests, so `stop()` can complete them (libmicrohttpd refuses to
    /// stop with suspended connections), and whether new ones may still be suspended.
    struct Suspensions {
        var allowed = true
        var waiting: [ObjectIdentifier: @Sendable () -> Void] = [:]
    }

    let configuration: HTTPServerConfiguration
    let router: Router
    /// The server's own middleware, outermost first: metrics first (a refused request is still counted), the
    /// guard before anything reads the request, the log last (it writes what the others decided). Held by
    /// their types, so every request calls them directly rather than through an existential each.
    let requestMetrics: RequestMetrics
    let requestGuard: RequestGuard
    let requestLogging: RequestLogging
    /// The router's middleware (inside the server's), outermost first, by the hook they implement.
    let headMiddleware: [any HTTPMiddleware]
    let respondMiddleware: [any HTTPMiddleware]
    let finishMiddleware: [any HTTPMiddleware]
    let metrics: ServerMetrics
    let log: RequestLog
    /// Requests begun and not finished (striped: every request changes it).
    let inFlight = StripedCounter()
    /// Replies libmicrohttpd refused to build or queue (`routereg_http_responses_failed_total`).
    let failedResponses = Atomic<Int>(0)
    let suspensions = Mutex(Suspensions())
    /// Tells a waiting `HTTPServer.stop()` that `inFlight` or `suspensions` changed.
    let drain = DrainSignal()
    /// True until the daemon stops: resumes happen under it so none reaches a stopped daemon.
    let resumeGate = Mutex(true)
    private let requestNumbers = StripedSequence()
    /// A random prefix telling this process's ids from another's: 8 hex digits and a dash.
    private let requestIDPrefix = Array((String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 16) + "-").utf8)

    init(configuration: HTTPServerConfiguration, router: Router, metrics: ServerMetrics, log: RequestLog) {
        self.configuration = configuration
        self.router = router
        self.metrics = metrics
        self.log = log
        requestMetrics = RequestMetrics(metrics: metrics)
        requestGuard = RequestGuard(maxBodyBytes: configuration.maxBodyBytes)
        requestLogging = RequestLogging(log: log, clientAddress: configuration.logClientAddress)
        let middleware = router.middleware
        headMiddleware = middleware.filter { $0.hooks.contains(.head) }
        respondMiddleware = middleware.filter { $0.hooks.contains(.respond) }
        finishMiddleware = middleware.filter { $0.hooks.contains(.finished) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A new request number: unique in the process, from 1, increasing per thread (`StripedSequence`).
    func nextRequestNumber() -> UInt64 { requestNumbers.next() }

    /// Room `writeRequestID` needs.
    var requestIDCapacity: Int { requestIDPrefix.count + 16 }

    /// The id of request `number`: this process's prefix and the number in hex (`3f2a9c1e-1b`).
    func requestID(number: UInt64) -> String {
        // Written into one buffer rather than concatenated.
        String(unsafeUninitializedCapacity: requestIDCapacity) { writeRequestID(number, into: $0) }
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

    /// The head of a request has arrived: its route is resolved and every middleware sees it. A response
    /// refuses the request now.
    func begin(_ request: HTTPRequest) -> HTTPResponse? {
        inFlight.add(1)
        let (resolution, parameters) = router.resolve(method: request.method, path: request.path) { request.host }
        request.resolution = resolution
        request.parameters = parameters
        if case .route(let route) = resolution {
            request.handlerLabel = route.label
            if let length = request.contentLength, route.takesBody, length > 0, length <= configuration.maxBodyBytes {
                request.body.reserveCapacity(length)
            }
        }
        _ = requestMetrics.head(request)
        if let refusal = requestGuard.head(request) { return refusal }
        _ = requestLogging.head(request)
        for middleware in headMiddleware {
            if let refusal = middleware.head(request) { return refusal }
        }
        if case .route(let route) = resolution {
            for middleware in route.middleware where middleware.hooks.contains(.head) {
                if let refusal = middleware.head(request) { return refusal }
            }
        }
        return nil
    }

    /// The answer to a complete request, or nil when it was deferred and the connection suspended.
    func respond(to request: HTTPRequest) -> HTTPResponse? {
        if request.bodyTooLarge { return .text(413, "request body too large\n") }
        switch request.resolution {
        case .notFound:
            return .text(404, "not found\n")
        case .methodNotAllowed(let allow):
            return .text(405, "method not allowed\n", headers: [("Allow", allow)])
        case .route(let route):
            switch run(route, request, from: 0) {
            case .respond(let response):
                if request.deferralStarted { request.deferred.withLock { $0 = .delivered } }
                return response
            case .later(let cancel):
                return suspendOrTake(request, cancel: cancel)
            }
        }
    }

    /// The middleware from `index` on (the server's, then the route's) around the route's responder.
    private func run(_ route: Router.Route, _ request: HTTPRequest, from index: Int) -> HTTPAnswer {
        let shared = respondMiddleware.count
        guard index < shared + route.middleware.count else { return route.responder(request) }
        let next = index < shared ? respondMiddleware[index] : route.middleware[index - shared]
        return next.respond(request) { run(route, $0, from: index + 1) }
    }

    /// Suspends the connection of a deferred request, unless its answer is already there or the server is
    /// stopping (then the work is cancelled and answered now).
    private func suspendOrTake(_ request: HTTPRequest, cancel: @escaping @Sendable () -> Void) -> HTTPResponse? {
        enum Step {
            case response(HTTPResponse)
            case suspended
            case stopping
        }
        let step: Step = request.deferred.withLock { phase in
            if case .ready(let response) = phase {
                phase = .delivered
                return .response(response)
            }
            let registered = suspensions.withLock { state in
                guard state.allowed else { return false }
                state.waiting[ObjectIdentifier(request)] = cancel
                return true
            }
            guard registered else { return .stopping }
            MHD_suspend_connection(request.connection)
            phase = .suspended
            return .suspended
        }
        switch step {
        case .response(let response): return response
        case .suspended:
            drain.changed()
            return nil
        case .stopping:
            // The cancellation answers the request (phase is still `waiting`), so its answer is ready now.
            cancel()
            return takeDeferredResponse(request) ?? .text(503, "shutting down\n")
        }
    }

    /// Hands a deferred request's answer to it; resumes the connection if it was suspended. Later calls for
    /// the same request are ignored.
    func deliver(_ response: HTTPResponse, to request: HTTPRequest) {
        let wasSuspended = request.deferred.withLock { phase in
            switch phase {
            case .waiting:
                phase = .ready(response)
                return false
            case .suspended:
                phase = .ready(response)
                return true
            case .idle, .ready, .delivered:
                return false
            }
        }
        guard wasSuspended else { return }
        suspensions.withLock { _ = $0.waiting.removeValue(forKey: ObjectIdentifier(request)) }
        // No lock of ours is held while libmicrohttpd takes its own; `resumeGate` only keeps the daemon alive
        // until the resume is posted.
        resumeGate.withLock { alive in
            if alive { MHD_resume_connection(request.connection) }
        }
    }

    /// The answer of a resumed connection, if it has one.
    func takeDeferredResponse(_ request: HTTPRequest) -> HTTPResponse? {
        request.deferred.withLock { phase in
            guard case .ready(let response) = phase else { return nil }
            phase = .delivered
            return response
        }
    }

    /// Counts a reply libmicrohttpd refused to build or queue.
    func responseFailed() { failedResponses.add(1, ordering: .relaxed) }

    /// Called when libmicrohttpd is done with a request: no more deliveries, then every middleware's
    /// `finished`, innermost first.
    func finished(_ request: HTTPRequest) {
        // Only a deferred request can be delivered to or waited for: the others take no shared lock.
        if request.deferralStarted {
            request.deferred.withLock { $0 = .delivered }
            suspensions.withLock { _ = $0.waiting.removeValue(forKey: ObjectIdentifier(request)) }
        }
        inFlight.add(-1)
        drain.changed()
        request.finishedNanos = DispatchTime.now().uptimeNanoseconds
        if case .route(let route) = request.resolution {
            for middleware in route.middleware.reversed() where middleware.hooks.contains(.finished) {
                middleware.finished(request)
            }
        }
        for middleware in finishMiddleware.reversed() { middleware.finished(request) }
        requestLogging.finished(request)
        requestMetrics.finished(request)
    }
}
