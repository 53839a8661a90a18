import Dispatch
import Foundation
import RouteCore
import RouteStore
import Synchronization

/// The served snapshot's life: loading it, rebuilding it when the database moves, checking it against a full
/// load, and persisting it to a file off the request path.
///
/// `RegistryService` holds one and delegates; writes take `rebuildLock` and end in `rebuildLocked`, so the
/// change notification of a server's own write finds the snapshot already current. Reads never come here:
/// they read `holder` directly.
final class RegistrySnapshots: Sendable {
    /// The current snapshot and its watchers (the one `RegistryService.snapshots` serves).
    let holder: SnapshotHolder
    private let store: Store
    /// Where the last snapshot is persisted (nil: nowhere).
    private let file: URL?
    private let log: @Sendable (String) -> Void
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
    private let fileEncoder = SnapshotFileEncoder()
    /// Nanoseconds the last snapshot rebuild took (read from the database, built, installed), for metrics.
    private let lastRebuildNanos = Atomic<UInt64>(0)
    /// Milliseconds since 1970 when the snapshot was last known to match the database (0: never).
    private let refreshedAtMillis = Atomic<Int64>(0)
    /// Full reloads because the served state was not in the database's history (a failover lost writes).
    private let identityLossCount = Atomic<Int>(0)
    /// Periodic checks that found the incrementally built registry different from a full load.
    private let divergenceCount = Atomic<Int>(0)
    /// A snapshot was built from the database at least once (not only read from the persisted file).
    private let loadedFromDatabase = Atomic<Bool>(false)

    init(store: Store, file: URL?, log: @escaping @Sendable (String) -> Void) {
        self.holder = SnapshotHolder()
        self.store = store
        self.file = file
        self.log = log
    }

    /// When the snapshot was last confirmed to match the database (or, for a snapshot read from the file at
    /// start, when it was built); nil before any snapshot was loaded.
    var refreshedAt: Date? {
        let millis = refreshedAtMillis.load(ordering: .relaxed)
        return millis == 0 ? nil : Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    private func markRefreshed(_ date: Date = Date()) {
        refreshedAtMillis.store(Int64(date.timeIntervalSince1970 * 1000), ordering: .relaxed)
    }

    /// Full reloads forced by a served state missing from the database's history, since start.
    var identityLosses: Int { identityLossCount.load(ordering: .relaxed) }

    /// Periodic full loads that differed from the incrementally built snapshot, since start.
    var divergences: Int { divergenceCount.load(ordering: .relaxed) }

    /// Seconds the last snapshot rebuild took (0 before the first).
    var lastBuildSeconds: Double { Double(lastRebuildNanos.load(ordering: .relaxed)) / 1e9 }

    /// Installs the persisted snapshot, when there is one (at a start without the database).
    func loadPersisted() {
        guard let file, let persisted = SnapshotFile.load(from: file) else { return }
        holder.install(persisted)
        markRefreshed(persisted.builtAt)
    }

    /// Rebuilds the snapshot from the database and installs it (skipped when nothing changed since); `force`
    /// reloads the whole registry. Returns whether the served state may have moved (`force`, or another
    /// identity), which is when the links have something new to read.
    func refresh(force: Bool, deadline: ContinuousClock.Instant) throws -> Bool {
        let before = holder.current.identity
        // Ask the database first, outside the lock, forced or not: a probe of a hung database must not hold
        // the lock that writes wait for (after a failover the first write would wait out the probe's
        // deadline), and an idle poll then takes no lock at all.
        let observed = try mappingStoreFailures(log: log) {
            SnapshotBuilder.Observed(try store.auditHead(withTokenOf: before.generation, deadline: deadline))
        }
        if !force, loadedFromDatabase.load(ordering: .relaxed), observed.contains(before), observed.state == before,
            holder.current.identity == before
        {
            markRefreshed()
            return false
        }
        try rebuildLock.withLock(until: deadline) { try rebuildLocked(force: force, reusing: nil, deadline: deadline) }
        return force || holder.current.identity != before
    }

    /// The rebuild itself; the caller holds `rebuildLock`.
    ///
    /// The served snapshot is identified by (generation, write token). When the database's history does not
    /// contain it (a failover lost acknowledged writes and may have reused their audit ids), the snapshot is
    /// replaced by a full load even though its generation may look newer: serving on would show ghost routes,
    /// and writes built on it would store them.
    func rebuildLocked(force: Bool, reusing: SnapshotBuilder.Reuse?, deadline: ContinuousClock.Instant) throws {
        let current = holder.current
        let served = current.identity
        let observed = try mappingStoreFailures(log: log) {
            SnapshotBuilder.Observed(try store.auditHead(withTokenOf: served.generation, deadline: deadline))
        }
        let lost = !observed.contains(served)
        if lost {
            identityLossCount.add(1, ordering: .relaxed)
            log(
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
            holder.install(advanced)
            markRefreshed()
            schedulePersist(advanced)
            return
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let snapshot = try SnapshotBuilder.build(
            from: store, reusing: lost || force ? nil : reusing, previous: lost ? nil : current, deadline: deadline)
        holder.install(snapshot, replacing: lost || force)
        loadedFromDatabase.store(true, ordering: .relaxed)
        markRefreshed()
        lastRebuildNanos.store(DispatchTime.now().uptimeNanoseconds - started, ordering: .relaxed)
        schedulePersist(snapshot)
    }

    /// Loads the whole registry and compares it with the served one when both are of the same state (see
    /// `RegistryService.verifySnapshot`). Returns false when they differed.
    func verify(deadline: ContinuousClock.Instant) throws -> Bool {
        try rebuildLock.withLock(until: deadline) {
            let current = holder.current
            let loaded = try mappingStoreFailures(log: log) {
                try SnapshotBuilder.build(from: store, previous: current, deadline: deadline)
            }
            markRefreshed()
            guard loaded.identity == current.identity else {
                holder.install(loaded, replacing: true)
                schedulePersist(loaded)
                return true
            }
            guard loaded.registry != current.registry || loaded.documents != current.documents else { return true }
            divergenceCount.add(1, ordering: .relaxed)
            log(
                "snapshot: DIVERGENCE at \(current.identity): the served registry differs from a full load of the"
                    + " same state; serving the full load")
            holder.install(loaded, replacing: true)
            schedulePersist(loaded)
            return false
        }
    }
}

extension RegistrySnapshots {
    /// Persists `snapshot` on a background queue, at most once a second (less often when encoding is slow:
    /// ten times its last encoding's time apart).
    /// Encoding the whole registry costs more than the rest of a write at a few thousand routes, so a burst of
    /// writes persists once at its end; only the newest snapshot matters, so snapshots installed meanwhile
    /// replace the pending one. The file is a fallback for starting while the database is down; shutdown
    /// flushes it (`flushPersisted`), a crash may leave it a second or so behind.
    private func schedulePersist(_ snapshot: Snapshot) {
        guard file != nil else { return }
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
        guard let file,
            let snapshot = pendingPersist.withLock({ pending in
                defer { pending = nil }
                return pending
            })
        else { return }
        let started = DispatchTime.now().uptimeNanoseconds
        // Encoding a large registry takes a core for a while, so it runs on a thread of its own at the lowest
        // CPU priority: on a busy machine requests and writes come first, and the file waits (it is a
        // fallback for a start without the database). The queue waits for it, so files are written in order.
        let log = log
        let encoder = fileEncoder
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
    func flushPersisted() {
        persistQueue.sync { persistPending() }
    }
}
