import Foundation
import HTTPServing
import JSONRPC
import RegistryConsole
import RegistryService
import RouteCore
import Synchronization

/// The registry served over HTTP: its routes (`RegistryRoutes`) on one libmicrohttpd daemon, its methods on
/// the JSON-RPC engine, readiness (a snapshot fresh enough to serve: `RegistryService.isReady`) and metrics.
public final class RegistryServer: Sendable {
    /// The HTTP daemon.
    public let http: HTTPServer
    /// The use cases behind it.
    public let service: RegistryService
    /// The engine answering `POST /rpc` (for the test that holds its table to the OpenRPC document).
    public let dispatcher: JSONRPCDispatcher
    /// Failed sign-ins per client address, in memory (`SignInLimiter`).
    public let signIns: SignInLimiter

    /// - Parameters:
    ///   - console: serve the web console (at `RegistryServer.consolePath`).
    ///   - build: what `GET /version` says.
    ///   - signInLimit: how many failed sign-ins lock a client address out, and for how long.
    ///   - adminSurfaces: where `/rpc`, `/console/` and `/metrics` answer, and who may read `/metrics`.
    public init(
        service: RegistryService, configuration: HTTPServerConfiguration, cacheMaxAge: Int = 300,
        limits: JSONRPCLimits = JSONRPCLimits(), log: RequestLog = .standardError, console: Bool = false,
        build: BuildInfo = .unknown, signInLimit: SignInLimiter.Policy = SignInLimiter.Policy(),
        adminSurfaces: AdminSurfaces = AdminSurfaces()
    ) {
        self.service = service
        let signIns = SignInLimiter(policy: signInLimit)
        self.signIns = signIns
        let metrics = ServerMetrics()
        // Each method reads where its descriptor says (`MethodTraits.source`).
        let methods = RegistryMethods.table(service, openRPC: OpenRPCDocument.bytes ?? Array("{}".utf8))
        // Requests calling a method that may wait on the database run here, never on libmicrohttpd's workers:
        // each worker serves many connections, so one stuck behind a hung database would stall the snapshot
        // reads of all of them. Every wait there has a deadline, which bounds how many such requests pile up.
        let offload = DispatchQueue(label: "routereg.database-calls", attributes: .concurrent)
        // A Check of a long URL (the costliest the write-time bounds allow take milliseconds) runs on one thread
        // at nice 19: any number of them leave the other requests almost all of the CPU.
        dispatcher = JSONRPCDispatcher(
            methods: methods, authenticator: RegistryAuthenticator(service: service), limits: limits,
            observer: ServerObserver(metrics: metrics, log: log), offload: offload, lowPriority: LowPriorityLane(),
            contract: .registry, signIns: signIns)
        let cacheControl = "public, max-age=\(cacheMaxAge)"
        let router = RegistryRoutes.router(
            RegistryRoutes.Endpoints(
                rpc: JSONRPCEndpoint(dispatcher: dispatcher),
                wellKnown: RegistryDocuments(service: service, cacheControl: cacheControl),
                tables: CanOpenTableDocuments(service: service, cacheControl: cacheControl),
                console: console ? ConsoleDocuments(root: RegistryRoutes.console) : nil,
                links: ShortLinkPages(service: service),
                qrCodes: ShortLinkQRCodes(service: service),
                hostClasses: RegistryHostClasses(service: service, adminHosts: adminSurfaces.adminHosts),
                metricsToken: adminSurfaces.metricsToken,
                readiness: { service.isReady() }, metrics: metrics, build: build))
        http = HTTPServer(configuration: configuration, router: router, metrics: metrics, log: log)
        Self.registerGauges(metrics, service: service)
        Self.registerSignInCounters(metrics, signIns: signIns)
        Self.registerLinkCounters(metrics, clicks: service.clicks)
    }

    private static func registerSignInCounters(_ metrics: ServerMetrics, signIns: SignInLimiter) {
        metrics.registerCounter(
            "routereg_sign_in_failures_total",
            help: "Calls whose bearer token authenticated nobody (unknown, revoked, expired)"
        ) { [ServerMetrics.Sample(value: Double(signIns.failures))] }
        metrics.registerCounter(
            "routereg_sign_in_lockouts_total", help: "Client addresses locked out by the failed sign-in limit (bursts)"
        ) { [ServerMetrics.Sample(value: Double(signIns.lockouts))] }
        metrics.registerCounter(
            "routereg_sign_in_limited_total", help: "Failed sign-ins answered RESOURCE_EXHAUSTED (HTTP 429)"
        ) { [ServerMetrics.Sample(value: Double(signIns.refusals))] }
    }

    /// Where the web console is served, when it is.
    public static var consolePath: String { RegistryRoutes.console }

    /// The bound port (the ephemeral one when configured with port 0).
    public var port: UInt16 { http.port }

    public func start() throws { try http.start() }

    /// Graceful: stops accepting, lets in-flight requests finish, then stops.
    public func stop() { http.stop() }

    private static func registerGauges(_ metrics: ServerMetrics, service: RegistryService) {
        metrics.registerGauge("routereg_snapshot_age_seconds", help: "Seconds since the snapshot was built") {
            [ServerMetrics.Sample(value: Date().timeIntervalSince(service.snapshot.builtAt))]
        }
        metrics.registerGauge(
            "routereg_snapshot_build_seconds", help: "Seconds the last snapshot rebuild took (without persisting it)"
        ) {
            [ServerMetrics.Sample(value: service.lastSnapshotBuildSeconds)]
        }
        metrics.registerGauge("routereg_document_revision", help: "Latest revision of each served document") {
            service.snapshot.documents.values.sorted { ($0.host, $0.kind.rawValue) < ($1.host, $1.kind.rawValue) }.map {
                ServerMetrics.Sample(
                    labels: [("host", $0.host), ("kind", $0.kind.rawValue)], value: Double($0.revision))
            }
        }
        metrics.registerGauge("routereg_db_pool_open_connections", help: "Open database connections") {
            [ServerMetrics.Sample(value: Double(service.openDatabaseConnections))]
        }
        metrics.registerGauge("routereg_watchers", help: "Long polls waiting for a document change") {
            [ServerMetrics.Sample(value: Double(service.snapshots.watcherCount))]
        }
        registerHealthGauges(metrics, service: service)
        registerDeliveryGauges(metrics, service: service)
    }

    /// The delivery watch's view (`DeliveryBoard`, read from the database by whichever server observes):
    /// documents not observed yet have no samples.
    private static func registerDeliveryGauges(_ metrics: ServerMetrics, service: RegistryService) {
        func samples(_ value: @escaping @Sendable (DeliveryState, Date) -> Double?)
            -> @Sendable () -> [ServerMetrics.Sample]
        {
            {
                let now = Date()
                return service.delivery.current.compactMap { state in
                    value(state, now).map {
                        ServerMetrics.Sample(
                            labels: [("host", state.key.host), ("kind", state.key.kind.rawValue)], value: $0)
                    }
                }
            }
        }
        metrics.registerGauge(
            "routereg_delivery_revisions_behind",
            help: "Revisions newer than the one Apple's CDN or Google serves (0: current; -1: none of ours)",
            samples { state, _ in state.revisionsBehind.map(Double.init) })
        metrics.registerGauge(
            "routereg_delivery_seconds_behind",
            help: "Seconds since the oldest revision Apple's CDN or Google has not shown was created (0: current)",
            samples { state, now in state.secondsBehind(at: now) })
        metrics.registerGauge(
            "routereg_delivery_last_observation_timestamp_seconds",
            help: "When the delivery watch last observed the document (Unix time)",
            samples { state, _ in state.last.map { $0.observedAt.timeIntervalSince1970 } })
        metrics.registerGauge(
            "routereg_delivery_last_observation_outcome",
            help: "1 for the outcome of the last observation (served, unchanged, not_found, http_error, timeout, ...)"
        ) {
            service.delivery.current.compactMap { state in
                state.last.map {
                    ServerMetrics.Sample(
                        labels: [
                            ("host", state.key.host), ("kind", state.key.kind.rawValue),
                            ("outcome", $0.outcome.rawValue),
                        ], value: 1)
                }
            }
        }
    }

    private static func registerHealthGauges(_ metrics: ServerMetrics, service: RegistryService) {
        metrics.registerGauge(
            "routereg_database_up", help: "1 when the database answered the last probe (-1 before the first)"
        ) {
            [ServerMetrics.Sample(value: service.isDatabaseUp.map { $0 ? 1 : 0 } ?? -1)]
        }
        metrics.registerGauge(
            "routereg_listener_connected", help: "1 while LISTEN is in place (-1 on a replica, which polls)"
        ) {
            [ServerMetrics.Sample(value: service.isListenerConnected.map { $0 ? 1 : 0 } ?? -1)]
        }
        metrics.registerGauge(
            "routereg_snapshot_refreshed_timestamp_seconds",
            help: "When the snapshot was last confirmed against the database (Unix time; 0: never)"
        ) {
            [ServerMetrics.Sample(value: service.snapshotRefreshedAt?.timeIntervalSince1970 ?? 0)]
        }
        metrics.registerGauge(
            "routereg_snapshot_identity_losses_total",
            help: "Full reloads because the served state was missing from the database (writes lost in a failover)"
        ) {
            [ServerMetrics.Sample(value: Double(service.snapshotIdentityLosses))]
        }
        metrics.registerGauge(
            "routereg_snapshot_divergences_total",
            help: "Periodic full loads that differed from the incrementally built snapshot (should stay 0)"
        ) {
            [ServerMetrics.Sample(value: Double(service.snapshotDivergences))]
        }
        metrics.registerGauge("routereg_read_only", help: "1 when writes are refused (hot standby or --read-only)") {
            [ServerMetrics.Sample(value: service.readOnlyReason == nil ? 0 : 1)]
        }
    }
}
