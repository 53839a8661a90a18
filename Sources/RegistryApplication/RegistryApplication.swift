import HTTPServing
import RegistryAPI
import RegistryService
import RouteStore

/// The composition root: built from a `Configuration`, it owns every part of a running registry (the
/// embedded PostgreSQL, the pool, the service, the database monitor, click and token-use flushing, the
/// delivery watch, the request log, the HTTP server) and runs them as services in one start order, stopped
/// gracefully in the reverse. `serve`, the test server and `backup check` each build one, so the wiring and
/// the shutdown order are written here only.
public final class RegistryApplication: Sendable {
    /// The parts, built once the database's URL is known (an embedded cluster tells it when started).
    public struct Parts: Sendable {
        /// The URL the pool, the listener and the watch connect to.
        public let databaseURL: String
        /// The connection pool.
        public let pool: Database
        /// The use cases and the snapshot.
        public let service: RegistryService
        /// The database monitor (migrations, LISTEN/NOTIFY, polling, verification).
        public let runtime: RegistryRuntime
        /// The delivery watch, when configured.
        public let delivery: DeliveryWatch?
        /// The HTTP server.
        public let server: RegistryServer
    }

    /// What the application was built from.
    public let configuration: Configuration
    private let group: ServiceGroup
    private let built: Slot<Parts>

    /// Builds the services in their start order; nothing starts before `start()`.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let built = Slot<Parts>()
        self.built = built
        group = ServiceGroup(
            Self.services(configuration, built: built), stopTimeout: configuration.stopTimeout,
            log: configuration.log)
    }

    /// The parts; available once `start()` has built them (a programming error before).
    public var parts: Parts {
        guard let parts = built.current else { preconditionFailure("RegistryApplication is not started") }
        return parts
    }

    /// The service of `parts`.
    public var service: RegistryService { parts.service }
    /// The HTTP server of `parts`.
    public var server: RegistryServer { parts.server }
    /// The port the HTTP server listens on.
    public var port: UInt16 { parts.server.port }

    /// Starts every service in order; a failure stops what started and is rethrown.
    public func start() throws { try group.start() }

    /// Stops every started service in reverse order, each within `configuration.stopTimeout`; returns how
    /// each stop ended. Stopping twice stops nothing twice.
    @discardableResult
    public func stop() -> [ServiceGroup.StopOutcome] { group.stop() }
}
