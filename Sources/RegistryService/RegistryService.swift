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

        public init(
            snapshotFile: URL? = nil, bootstrapAdminSHA256: String? = nil,
            log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.snapshotFile = snapshotFile
            self.bootstrapAdminSHA256 = bootstrapAdminSHA256
            self.log = log
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
    let rebuildLock = Mutex(())
    /// Each host's generated files and what they were generated from.
    let hostFiles = HostFilesCache()
    /// The newest snapshot waiting to be persisted (the file is written off the request path).
    private let pendingPersist = Mutex<Snapshot?>(nil)
    private let persistQueue = DispatchQueue(label: "routereg.snapshot-persist")
    private let lastPersistNanos = Atomic<UInt64>(0)
    /// Nanoseconds the last snapshot rebuild took (read from the database, built, installed), for metrics.
    private let lastRebuildNanos = Atomic<UInt64>(0)

    public init(store: Store, options: Options = Options()) {
        self.store = store
        self.options = options
        self.snapshots = SnapshotHolder()
    }

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
            }
            return false
        }
    }

    /// Rebuilds the snapshot from the database and installs it (skipped when nothing changed since).
    public func refreshSnapshot(force: Bool = false) throws {
        try rebuildSnapshot(force: force, reusing: nil)
    }

    /// `refreshSnapshot`, taking the registry a write just committed when no other write came after it.
    func rebuildSnapshot(force: Bool, reusing: SnapshotBuilder.Reuse?) throws {
        try rebuildLock.withLock { _ in try rebuildLocked(force: force, reusing: reusing) }
    }

    /// The rebuild itself; the caller holds `rebuildLock`.
    func rebuildLocked(force: Bool, reusing: SnapshotBuilder.Reuse?) throws {
        let current = snapshots.current
        if !force, current.generation > 0, try latestGeneration() == current.generation { return }
        let started = DispatchTime.now().uptimeNanoseconds
        let snapshot = try SnapshotBuilder.build(from: store, reusing: reusing, previous: current)
        snapshots.install(snapshot)
        lastRebuildNanos.store(DispatchTime.now().uptimeNanoseconds - started, ordering: .relaxed)
        schedulePersist(snapshot)
    }

    /// Persists `snapshot` on a background queue, at most once a second (less often when encoding is slow).
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
        // At least a second apart, and never more than a fifth of the time spent encoding.
        let delay = max(1_000_000_000, 4 * lastPersistNanos.load(ordering: .relaxed))
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
        do { try SnapshotFile.save(snapshot, to: file) } catch {
            options.log("snapshot: could not persist (\(error))")
        }
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

    /// True when the database answers a trivial query.
    public func isDatabaseReachable() -> Bool {
        (try? store.database.withConnection { connection in try connection.query("SELECT 1 AS one") }) != nil
    }

    private func latestGeneration() throws -> Int64 {
        try mapped {
            try store.database.withConnection { connection in
                try SnapshotBuilder.generation(connection.query(SnapshotBuilder.generationQuery))
            }
        }
    }

    /// Runs `body`, turning store failures into the `RegistryError` clients see.
    func mapped<T>(_ body: () throws -> T) throws(RegistryError) -> T {
        do { return try body() } catch let error as RegistryError { throw error } catch let error as StoreError {
            if !error.isConnectionFailure { options.log("store: \(error.logDetail)") }
            throw error.registryError
        } catch {
            options.log("internal: \(error)")
            throw RegistryError.internal()
        }
    }
}
