import HTTPServing
import JSONRPC
import RegistryAPI
import RegistryService
import RouteStore

/// Everything that decides how a registry runs: what `serve`'s flags and environment decide, built directly
/// by the test server and `backup check`. `RegistryApplication` builds every part from it and nothing else.
public struct Configuration: Sendable {
    /// Where the database is.
    public enum DatabaseSource: Sendable {
        /// A libpq URL (empty: libpq reads the `PG*` variables).
        case url(String)
        /// A cluster of our own, created and started under this directory, stopped last.
        case embedded(dataDirectory: String)
    }

    /// Where the database is.
    public var database: DatabaseSource
    /// Connections in the pool.
    public var poolSize: Int
    /// The service's settings: snapshot file, bootstrap admin, write deadline, read-only, snapshot age, log.
    public var service: RegistryService.Options
    /// The database monitor's timings, and the click flushing interval and retention.
    public var runtime: RegistryRuntime.Options
    /// The delivery watch's settings; nil runs no watch.
    public var delivery: DeliveryWatch.Options?
    /// Listen address, threads and connection limits of the HTTP server.
    public var http: HTTPServerConfiguration
    /// `Cache-Control: max-age` of the served documents.
    public var cacheMaxAge: Int
    /// Where each request's line goes.
    public var requestLog: RequestLog
    /// Whether the web console is served.
    public var console: Bool
    /// What `GET /version` says.
    public var build: BuildInfo
    /// How many failed sign-ins lock a client address out.
    public var signInLimit: SignInLimiter.Policy
    /// Where the admin surfaces answer, and who may read `/metrics`.
    public var adminSurfaces: AdminSurfaces
    /// Whether clicks and token last uses are written to the database (periodically and on stop). False for
    /// `backup check`, which serves a restored database to compare it and must leave it as it was.
    public var writesCounters: Bool
    /// Whether a database that does not answer at start fails the start (`backup check`) instead of serving
    /// the persisted snapshot while the monitor retries (`serve`).
    public var requiresDatabase: Bool
    /// How long each part may take to stop.
    public var stopTimeout: Duration
    /// Lines about starting and stopping (the runtime's and the watch's lines too).
    public var log: @Sendable (String) -> Void

    /// A configuration with `serve`'s defaults for what is not given.
    public init(
        database: DatabaseSource, poolSize: Int = 8, service: RegistryService.Options = RegistryService.Options(),
        runtime: RegistryRuntime.Options = RegistryRuntime.Options(), delivery: DeliveryWatch.Options? = nil,
        http: HTTPServerConfiguration, cacheMaxAge: Int = 300, requestLog: RequestLog = .standardError,
        console: Bool = false, build: BuildInfo = .unknown, signInLimit: SignInLimiter.Policy = SignInLimiter.Policy(),
        adminSurfaces: AdminSurfaces = AdminSurfaces(), writesCounters: Bool = true, requiresDatabase: Bool = false,
        stopTimeout: Duration = .seconds(5), log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.database = database
        self.poolSize = poolSize
        self.service = service
        self.runtime = runtime
        self.delivery = delivery
        self.http = http
        self.cacheMaxAge = cacheMaxAge
        self.requestLog = requestLog
        self.console = console
        self.build = build
        self.signInLimit = signInLimit
        self.adminSurfaces = adminSurfaces
        self.writesCounters = writesCounters
        self.requiresDatabase = requiresDatabase
        self.stopTimeout = stopTimeout
        self.log = log
    }
}
