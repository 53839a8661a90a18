import Dispatch
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
    /// The current snapshot and its watchers.
    public let snapshots: SnapshotHolder
    let options: Options
    /// Serializes snapshot rebuilds, so an older state never overwrites a newer one mid-flight. Writes hold
    /// it from their transaction to their rebuild, so the change notification of a server's own write
    /// finds the snapshot already current instead of rebuilding it a second time.
    /// Waits for it end at the caller's deadline, so a write stuck behind a hung database never holds the
    /// ones queued behind it for longer than they agreed to wait.
    let rebuildLock = DeadlineLock()
    /// Each host's generated files and what they were generated from.
    let hostFiles = HostFilesCache()
    /// The newest snapshot waiting to be persisted (the file is written off the request path).
    private let pendingPersist = Mutex<Snapshot?>(nil)
    private let persistQueue = DispatchQueue(label: "routereg.snapshot-persist")
    private let lastPersistNanos = Atomic<UInt64>(0)
    /// Keeps the JSON of the parts of the last persisted snapshot (used on `persistQueue` only).
    private let snapshotFileEncoder = SnapshotFileEncoder()
    /// Nanoseconds the last snapshot rebuild took (read from the database, built, installed), for metrics.
    private let lastRebuildNanos = Atomic<UInt64>(0)
    /// Milliseconds since 1970 when the snapshot was last known to match the database (0: never).
    private let refreshedAtMillis = Atomic<Int64>(0)
    /// Full reloads because the served state was not in the database's history (a failover lost writes).
    let identityLosses = Atomic<Int>(0)
    /// Periodic checks that found the incrementally built registry different from a full load.
    let divergences = Atomic<Int>(0)
    /// Where writes go: nil while the database is a primary, else why they are refused (a hot standby).
    let replica = Mutex<String?>(nil)
    /// What the runtime last saw of the database and the change listener (`RegistryService+Health`).
    let health = Mutex(HealthState())
    /// Every short link, in memory (`LinkIndex`): clicks never wait on the database.
    public let links = LinkIndex()
    /// Clicks counted since the last flush (`ClickCounter`).
    public let clicks = ClickCounter()
    /// Clicks used of links with a cap (`ClickCaps`).
    public let caps = ClickCaps()
    /// Tokens' last uses since the last flush (`TokenUses`).
    public let tokenUses = TokenUses()
    /// What Apple's CDN and Google serve per domain, as last read from the database (`DeliveryWatch`).
    public let delivery = DeliveryBoard()
    /// A snapshot was built from the database at least once (not only read from the persisted file).
    private let loadedFromDatabase = Atomic<Bool>(false)

    public init(store: Store, options: Options = Options()) {
        self.store = store
        self.options = options
        self.snapshots = SnapshotHolder()
        if options.readOnly { replica.withLock { $0 = "this server is configured read-only (--read-only)" } }
    }

    /// When the snapshot was last confirmed to match the database (or, for a snapshot read from the file at
    /// start, when it was built); nil before any snapshot was loaded.
    public var snapshotRefreshedAt: Date? {
        let millis = refreshedAtMillis.load(ordering: .relaxed)
        return millis == 0 ? nil : Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    func markRefreshed(_ date: Date = Date()) {
        refreshedAtMillis.store(Int64(date.timeIntervalSince1970 * 1000), ordering: .relaxed)
    }

    /// Full reloads forced by a served state missing from the database's history, since start.
    public var snapshotIdentityLosses: Int { identityLosses.load(ordering: .relaxed) }

    /// Periodic full loads that differed from the incrementally built snapshot, since start.
    public var snapshotDivergences: Int { divergences.load(ordering: .relaxed) }

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
            if let file = options.snapshotFile, let persisted = SnapshotFile.load(from: file) {
                snapshots.install(persisted)
                markRefreshed(persisted.builtAt)
            }
            return false
        }
    }

    /// Rebuilds the snapshot from the database and installs it (skipped when nothing changed since); `force`
    /// reloads the whole registry (after a reconnect: the database may be another server since a failover).
    /// Waits for nothing past `deadline` (default: the pool's default timeout).
    public func refreshSnapshot(force: Bool = false, deadline: ContinuousClock.Instant? = nil) throws {
        let deadline = deadline ?? .now + store.defaultTimeout
        let before = snapshots.current.identity
        // Ask the database first, outside the lock, forced or not: a probe of a hung database must not hold
        // the lock that writes wait for (after a failover the first write would wait out the probe's
        // deadline), and an idle poll then takes no lock at all.
        let observed = try mapped {
            SnapshotBuilder.Observed(try store.auditHead(withTokenOf: before.generation, deadline: deadline))
        }
        if !force, loadedFromDatabase.load(ordering: .relaxed), observed.contains(before), observed.state == before,
            snapshots.current.identity == before
        {
            markRefreshed()
            if !links.loaded { try refreshLinks(deadline: deadline) }
            return
        }
        try rebuildLock.withLock(until: deadline) { try rebuildLocked(force: force, reusing: nil, deadline: deadline) }
        // Links live apart from the snapshot, but every link write is an audit entry: the index has something
        // to read only when the state moved (or it never read), so an idle poll asks nothing more.
        if force || snapshots.current.identity != before || !links.loaded {
            try refreshLinks(deadline: deadline)
        }
    }

    /// The rebuild itself; the caller holds `rebuildLock`.
    ///
    /// The served snapshot is identified by (generation, write token). When the database's history does not
    /// contain it (a failover lost acknowledged writes and may have reused their audit ids), the snapshot is
    /// replaced by a full load even though its generation may look newer: serving on would show ghost routes,
    /// and writes built on it would store them.
    func rebuildLocked(force: Bool, reusing: SnapshotBuilder.Reuse?, deadline: ContinuousClock.Instant) throws {
        let current = snapshots.current
        let served = current.identity
        let observed = try mapped {
            SnapshotBuilder.Observed(try store.auditHead(withTokenOf: served.generation, deadline: deadline))
        }
        let lost = !observed.contains(served)
        if lost {
            identityLosses.add(1, ordering: .relaxed)
            options.log(
                "snapshot: the database's history does not contain the served \(served) (it has \(observed.state)):"
                    + " writes were lost, probably in a failover; reloading everything")
        }
        if !force, !lost, loadedFromDatabase.load(ordering: .relaxed), observed.state == served {
            markRefreshed()
            return
        }
        // Link writes change nothing a snapshot holds: when only they came since, the snapshot moves to the
        // newer state as it is, so a fleet's servers pay no full load per link written.
        if !force, !lost, loadedFromDatabase.load(ordering: .relaxed), observed.state.generation > served.generation,
            try store.auditOnlyMethods(
                API.snapshotNeutralWrites, after: served.generation, through: observed.state.generation,
                deadline: deadline)
        {
            let advanced = Snapshot(advancing: current, to: observed.state)
            snapshots.install(advanced)
            markRefreshed()
            schedulePersist(advanced)
            return
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let snapshot = try SnapshotBuilder.build(
            from: store, reusing: lost || force ? nil : reusing, previous: lost ? nil : current, deadline: deadline)
        snapshots.install(snapshot, replacing: lost || force)
        loadedFromDatabase.store(true, ordering: .relaxed)
        markRefreshed()
        lastRebuildNanos.store(DispatchTime.now().uptimeNanoseconds - started, ordering: .relaxed)
        schedulePersist(snapshot)
    }

    /// Loads the whole registry and compares it with the served one when both are of the same state: the
    /// check, in every build, that building snapshots incrementally (`registryAfter`) never drifts from the
    /// database. A difference is logged, counted (`routereg_snapshot_divergences_total`) and repaired.
    /// Returns false when it found one.
    @discardableResult
    public func verifySnapshot(deadline: ContinuousClock.Instant? = nil) throws -> Bool {
        let deadline = deadline ?? .now + store.defaultTimeout
        return try rebuildLock.withLock(until: deadline) {
            let current = snapshots.current
            let loaded = try mapped { try SnapshotBuilder.build(from: store, previous: current, deadline: deadline) }
            markRefreshed()
            guard loaded.identity == current.identity else {
                snapshots.install(loaded, replacing: true)
                schedulePersist(loaded)
                return true
            }
            guard loaded.registry != current.registry || loaded.documents != current.documents else { return true }
            divergences.add(1, ordering: .relaxed)
            options.log(
                "snapshot: DIVERGENCE at \(current.identity): the served registry differs from a full load of the"
                    + " same state; serving the full load")
            snapshots.install(loaded, replacing: true)
            schedulePersist(loaded)
            return false
        }
    }

    /// Persists `snapshot` on a background queue, at most once a second (less often when encoding is slow:
    /// ten times its last encoding's time apart).
    /// Encoding the whole registry costs more than the rest of a write at a few thousand routes, so a burst of
    /// writes persists once at its end; only the newest snapshot matters, so snapshots installed meanwhile
    /// replace the pending one. The file is a fallback for starting while the database is down; shutdown
    /// flushes it (`flushPersistedSnapshot`), a crash may leave it a second or so behind.
    private func schedulePersist(_ snapshot: Snapshot) {
        guard options.snapshotFile != nil else { return }
        let idle = pendingPersist.withLock { pending in
            defer { pending = snapshot }
            return pending == nil
        }
        guard idle else { return }
        // At least a second apart, and under a stream of writes at most a tenth of one core spent encoding
        // (at twenty large apps a fifth was a fifth of what the writes themselves could use).
        let delay = max(1_000_000_000, 10 * lastPersistNanos.load(ordering: .relaxed))
        persistQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) { [self] in persistPending() }
    }

    private func persistPending() {
        guard let file = options.snapshotFile,
            let snapshot = pendingPersist.withLock({ pending in
                defer { pending = nil }
                return pending
            })
        else { return }
        let started = DispatchTime.now().uptimeNanoseconds
        // Encoding a large registry takes a core for a while, so it runs on a thread of its own at the lowest
        // CPU priority: on a busy machine requests and writes come first, and the file waits (it is a
        // fallback for a start without the database). The queue waits for it, so files are written in order.
        let log = options.log
        let encoder = snapshotFileEncoder
        let written = DispatchSemaphore(value: 0)
        let thread = Thread {
            LowPriority.enter()
            do { try SnapshotFile.save(snapshot, to: file, encoder: encoder) } catch {
                log("snapshot: could not persist (\(error))")
            }
            written.signal()
        }
        thread.name = "routereg.snapshot-file"
        thread.start()
        written.wait()
        lastPersistNanos.store(DispatchTime.now().uptimeNanoseconds - started, ordering: .relaxed)
    }

    /// Waits until the newest snapshot is on disk (at shutdown, so a restart without a database serves it).
    public func flushPersistedSnapshot() {
        persistQueue.sync { persistPending() }
    }

    /// Seconds the last snapshot rebuild took (0 before the first): what every write and every change
    /// notification costs on top of its transaction.
    public var lastSnapshotBuildSeconds: Double {
        Double(lastRebuildNanos.load(ordering: .relaxed)) / 1e9
    }

    /// True when the database answers a trivial query within `timeout`.
    public func isDatabaseReachable(timeout: Duration = .seconds(1)) -> Bool {
        store.isReachable(timeout: timeout)
    }

    /// Connections the database pool holds open (idle or in use), for metrics.
    public var openDatabaseConnections: Int { store.openConnections }
}
