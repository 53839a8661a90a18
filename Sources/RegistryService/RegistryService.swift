import Foundation
import RouteCore
import RouteStore
import Synchronization

/// The registry's use cases on top of RouteCore and RouteStore, and the owner of the in-memory snapshot.
///
/// Writes run as one audited transaction that also appends the new revisions of every generated file they
/// change; reads (`Associations.Get`, `CanOpen.*`, the well-known files) come from the snapshot only.
/// Thread-safe and synchronous: it is called from the HTTP server's worker threads.
public final class RegistryService: Sendable {
    /// Tunables.
    public struct Options: Sendable {
        /// Where the last snapshot is persisted, so a restart without a database still serves (nil: nowhere).
        public var snapshotFile: URL?
        /// SHA-256 (hex) of a bootstrap admin secret (from `ROUTEREG_ADMIN_TOKEN` or the embedded token file).
        public var bootstrapAdminSHA256: String?
        /// Log sink for server-side detail (never sent to clients).
        public var log: @Sendable (String) -> Void
        /// The deadline of a write whose caller gave none (`X-Request-Timeout-Ms`).
        public var defaultWriteTimeout: Duration
        /// Refuse writes: the server reads a hot standby (also set when the database says it is in recovery).
        public var readOnly: Bool
        /// `/readyz` fails once the snapshot has not been confirmed against the database for this long.
        public var maxSnapshotAge: Duration
        /// Webhook receivers allowed whatever they are (`serve --webhook-private-hosts`): an internal host,
        /// loopback, plain http. Every other receiver must be a public https host.
        public var webhookPrivateHosts: Set<String>

        public init(
            snapshotFile: URL? = nil, bootstrapAdminSHA256: String? = nil,
            log: @escaping @Sendable (String) -> Void = { _ in }, defaultWriteTimeout: Duration = .seconds(10),
            readOnly: Bool = false, maxSnapshotAge: Duration = .seconds(300), webhookPrivateHosts: Set<String> = []
        ) {
            self.webhookPrivateHosts = webhookPrivateHosts
            self.snapshotFile = snapshotFile
            self.bootstrapAdminSHA256 = bootstrapAdminSHA256
            self.log = log
            self.defaultWriteTimeout = defaultWriteTimeout
            self.readOnly = readOnly
            self.maxSnapshotAge = maxSnapshotAge
        }
    }

    /// The database.
    public let store: Store
    /// The current snapshot and its watchers: the one `registrySnapshots` builds, held here too so the read
    /// paths reach it with one load.
    public let snapshots: SnapshotHolder
    /// Loads, rebuilds, checks and persists the snapshot (`RegistrySnapshots`).
    let registrySnapshots: RegistrySnapshots
    let options: Options
    /// Where writes go: nil while the database is a primary, else why they are refused (a hot standby).
    let replica = Mutex<String?>(nil)
    /// What the runtime last saw of the database and the change listener (`RegistryService+Health`).
    let health = Mutex(HealthState())
    /// Short links in memory, their click counting and caps (`RegistryLinks`).
    let registryLinks: RegistryLinks
    /// Every short link, in memory (`LinkIndex`): clicks never wait on the database. `registryLinks.index`,
    /// held here too so a click reaches it with one load; so are `clicks` and `caps`.
    public let links: LinkIndex
    /// Clicks counted since the last flush (`ClickCounter`).
    public let clicks: ClickCounter
    /// Clicks used of links with a cap (`ClickCaps`).
    public let caps: ClickCaps
    /// Tokens' last uses since the last flush (`TokenUses`).
    public let tokenUses = TokenUses()
    /// What Apple's CDN and Google serve per domain, as last read from the database (`DeliveryWatch`).
    public let delivery = DeliveryBoard()
    public init(store: Store, options: Options = Options()) {
        self.store = store
        self.options = options
        self.registrySnapshots = RegistrySnapshots(store: store, file: options.snapshotFile, log: options.log)
        self.snapshots = registrySnapshots.holder
        self.registryLinks = RegistryLinks(store: store, log: options.log)
        self.links = registryLinks.index
        self.clicks = registryLinks.counter
        self.caps = registryLinks.caps
        if options.readOnly { replica.withLock { $0 = "this server is configured read-only (--read-only)" } }
    }

    /// When the snapshot was last confirmed to match the database (or, for a snapshot read from the file at
    /// start, when it was built); nil before any snapshot was loaded.
    public var snapshotRefreshedAt: Date? { registrySnapshots.refreshedAt }

    /// Full reloads forced by a served state missing from the database's history, since start.
    public var snapshotIdentityLosses: Int { registrySnapshots.identityLosses }

    /// Periodic full loads that differed from the incrementally built snapshot, since start.
    public var snapshotDivergences: Int { registrySnapshots.divergences }

    /// The current snapshot.
    public var snapshot: Snapshot { snapshots.current }

    /// Loads the snapshot: from the database when it answers, else from the persisted file.
    /// Returns true when the database answered.
    @discardableResult
    public func start() -> Bool {
        do {
            try refreshSnapshot()
            return true
        } catch {
            options.log("snapshot: database unavailable at start (\(error)); serving the persisted snapshot")
            registrySnapshots.loadPersisted()
            return false
        }
    }

    /// Rebuilds the snapshot from the database and installs it (skipped when nothing changed since); `force`
    /// reloads the whole registry (after a reconnect: the database may be another server since a failover).
    /// Waits for nothing past `deadline` (default: the pool's default timeout).
    public func refreshSnapshot(force: Bool = false, deadline: ContinuousClock.Instant? = nil) throws {
        let deadline = deadline ?? .now + store.defaultTimeout
        let moved = try registrySnapshots.refresh(force: force, deadline: deadline)
        // Links live apart from the snapshot, but every link write is an audit entry: the index has something
        // to read only when the state moved (or it never read), so an idle poll asks nothing more.
        if moved || !links.loaded { try refreshLinks(deadline: deadline) }
    }

    /// Loads the whole registry and compares it with the served one when both are of the same state: the
    /// check, in every build, that building snapshots incrementally (`registryAfter`) never drifts from the
    /// database. A difference is logged, counted (`routereg_snapshot_divergences_total`) and repaired.
    /// Returns false when it found one.
    @discardableResult
    public func verifySnapshot(deadline: ContinuousClock.Instant? = nil) throws -> Bool {
        try registrySnapshots.verify(deadline: deadline ?? .now + store.defaultTimeout)
    }

    /// Waits until the newest snapshot is on disk (at shutdown, so a restart without a database serves it).
    public func flushPersistedSnapshot() { registrySnapshots.flushPersisted() }

    /// Seconds the last snapshot rebuild took (0 before the first): what every write and every change
    /// notification costs on top of its transaction.
    public var lastSnapshotBuildSeconds: Double { registrySnapshots.lastBuildSeconds }

    /// True when the database answers a trivial query within `timeout`.
    public func isDatabaseReachable(timeout: Duration = .seconds(1)) -> Bool {
        store.isReachable(timeout: timeout)
    }

    /// Connections the database pool holds open (idle or in use), for metrics.
    public var openDatabaseConnections: Int { store.openConnections }
}
