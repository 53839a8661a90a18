import Foundation
import RegistryService
import RouteCore
import Synchronization

/// The registry served over HTTP: the JSON-RPC method table, the well-known files, readiness (the database
/// answers) and metrics, on one libmicrohttpd daemon.
public final class RegistryServer: Sendable {
    /// The HTTP daemon.
    public let http: HTTPServer
    /// The use cases behind it.
    public let service: RegistryService

    /// - Parameter extraDocuments: more files served on plain GETs before the well-known ones (the console).
    public init(
        service: RegistryService, configuration: HTTPServerConfiguration, cacheMaxAge: Int = 300,
        limits: JSONRPCLimits = JSONRPCLimits(), log: RequestLog = .standardError,
        extraDocuments: (any StaticDocumentProvider)? = nil
    ) {
        self.service = service
        let metrics = ServerMetrics()
        let dispatcher = JSONRPCDispatcher(
            methods: RegistryMethods.table(service, openRPC: OpenRPCDocument.bytes ?? Array("{}".utf8)),
            authenticator: RegistryAuthenticator(service: service), limits: limits, codec: JSONRPCCodec(),
            metrics: metrics, log: log, fastPaths: RegistryFastPaths.all(service))
        let readiness = ReadinessProbe(service: service)
        let wellKnown = RegistryDocuments(service: service, maxAge: cacheMaxAge)
        http = HTTPServer(
            configuration: configuration, dispatcher: dispatcher,
            documents: extraDocuments.map { ChainedDocuments([$0, wellKnown]) } ?? wellKnown,
            readiness: { readiness.isReady() },
            metrics: metrics, log: log)
        Self.registerGauges(metrics, service: service)
    }

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
            [ServerMetrics.Sample(value: Double(service.store.database.openConnections))]
        }
        metrics.registerGauge("routereg_watchers", help: "Long polls waiting for a document change") {
            [ServerMetrics.Sample(value: Double(service.snapshots.watcherCount))]
        }
    }
}

/// `/readyz`: the database answered within the last second (probes are cached so a flood of probes does not
/// become a flood of queries).
final class ReadinessProbe: Sendable {
    private let service: RegistryService
    private let last = Mutex<(at: ContinuousClock.Instant, ready: Bool)?>(nil)

    init(service: RegistryService) { self.service = service }

    func isReady() -> Bool {
        let now = ContinuousClock.now
        if let cached = last.withLock({ $0 }), cached.at.duration(to: now) < .seconds(1) { return cached.ready }
        let ready = service.isDatabaseReachable()
        last.withLock { $0 = (now, ready) }
        return ready
    }
}
