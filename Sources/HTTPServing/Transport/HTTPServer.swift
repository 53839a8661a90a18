import CMicroHTTPD
import Dispatch
import Foundation

/// An HTTP server: a libmicrohttpd daemon (epoll, a pool of worker threads) answering what its `Router`
/// routes, through the server's middleware (metrics, the request guard, the request log) and the router's.
///
/// Responders run synchronously on libmicrohttpd's worker threads; a deferred answer suspends its
/// connection instead of holding a thread. `stop()` is graceful: it stops accepting, lets in-flight requests finish
/// (bounded by `shutdownGracePeriod`), then stops the daemon.
public final class HTTPServer: @unchecked Sendable {
    // `@unchecked Sendable`: `daemon`, `listener` and `retained` change only in start()/stop(), which take
    // `lifecycle`.

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    private let core: ServerCore
    private let lifecycle = NSLock()
    private var daemon: OpaquePointer?
    private var listener: UnsafeMutablePointer<routereg_listener>?
    private var retained: Unmanaged<ServerCore>?
    private var boundPort: UInt16 = 0

    /// - Parameters:
    ///   - router: the routes, built once; what no route matches is 404.
    ///   - metrics: where requests are counted (and what a `/metrics` route would render).
    ///   - log: the per-request log line (`.silent` in tests).
    public init(
        configuration: HTTPServerConfiguration, router: Router = Router(), metrics: ServerMetrics = ServerMetrics(),
        log: RequestLog = .standardError
    ) {
        core = ServerCore(configuration: configuration, router: router, metrics: metrics, log: log)
        core.metrics.registerCounter(
            "routereg_http_responses_failed_total",
            help: "Replies libmicrohttpd refused to build or queue (answered 500 instead, or the connection closed)"
        ) { [weak core] in [ServerMetrics.Sample(value: Double(core?.failedResponses.load(ordering: .relaxed) ?? 0))] }
        if log.isEnabled {
            core.metrics.registerCounter(
                "routereg_log_lines_dropped_total", help: "Request log lines dropped because the writer fell behind"
            ) { [ServerMetrics.Sample(value: Double(log.droppedLines))] }
        }
    }

    deinit { stop() }

    /// The metrics this server counts into (and renders on `/metrics`).
    public var metrics: ServerMetrics { core.metrics }

    /// The port listened on: the ephemeral one when configured with port 0. 0 before `start()`.
    public var port: UInt16 {
        lifecycle.withLock { boundPort }
    }

    /// Starts listening. Throws when the address is not numeric or cannot be bound.
    public func start() throws {
        try lifecycle.withLock {
            guard daemon == nil else { return }
            let config = core.configuration
            let flags =
                MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            let unmanaged = Unmanaged.passRetained(core)
            var opened: UnsafeMutablePointer<routereg_listener>?
            let started: OpaquePointer? = config.host.withCString { address in
                var settings = routereg_mhd_settings(
                    address: address, port: config.port, flags: flags,
                    thread_pool_size: UInt32(clamping: config.threadPoolSize),
                    connection_limit: UInt32(clamping: config.connectionLimit),
                    per_ip_connection_limit: UInt32(clamping: config.perIPConnectionLimit),
                    connection_timeout: UInt32(clamping: config.connectionTimeoutSeconds),
                    connection_memory_limit: config.connectionMemoryLimit)
                return routereg_mhd_start(
                    &settings, mhdAccessHandler, unmanaged.toOpaque(), mhdRequestCompleted, unmanaged.toOpaque(),
                    &opened)
            }
            guard let started, let opened else {
                let reason = String(cString: routereg_mhd_start_error())
                let cause = reason.isEmpty ? String(cString: strerror(errno)) : reason
                unmanaged.release()
                throw StartError(description: "cannot listen on \(config.host) port \(config.port): \(cause)")
            }
            daemon = started
            listener = opened
            retained = unmanaged
            boundPort = opened.pointee.port
        }
    }

    /// Stops gracefully: no new connections, in-flight requests get `shutdownGracePeriod` to finish, deferred
    /// calls (long polls) at most `deferredGracePeriod` (a second) of it, then the ones still pending are cancelled (answered
    /// UNAVAILABLE, so their clients ask another server) and the daemon stops. Idempotent.
    ///
    /// Long polls are not waited for the whole grace period: a `Watch` waits up to minutes for a change, and
    /// every deploy would otherwise take the full grace period whenever one is open (a web server always has).
    /// Call it from outside the server (a signal handler's queue), never from a method handler: the daemon
    /// cannot stop while one of its own threads waits for it.
    public func stop() {
        lifecycle.withLock {
            guard let daemon, let retained else { return }
            // New connections are refused from here on; the daemon goes on serving the ones it has.
            routereg_listener_close(listener)
            listener = nil
            let grace = core.configuration.shutdownGracePeriod
            let clock = ContinuousClock()
            let started = clock.now
            core.drain.wait(upTo: grace) {
                core.inFlight.sum <= core.suspensions.withLock { $0.waiting.count }
            }
            waitForInFlight(upTo: min(core.configuration.deferredGracePeriod, grace - (clock.now - started)))
            let cancels = core.suspensions.withLock { state in
                state.allowed = false
                return Array(state.waiting.values)
            }
            for cancel in cancels { cancel() }
            waitForInFlight(upTo: .seconds(2))
            core.resumeGate.withLock { $0 = false }
            MHD_stop_daemon(daemon)
            // Every request has finished: its line is queued; a graceful stop leaves none unwritten.
            core.log.flush(timeout: .seconds(5))
            retained.release()
            self.daemon = nil
            self.retained = nil
        }
    }

    private func waitForInFlight(upTo limit: Duration) {
        core.drain.wait(upTo: limit) { core.inFlight.sum == 0 }
    }
}
