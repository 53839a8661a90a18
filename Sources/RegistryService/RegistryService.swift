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
    /// Serializes snapshot rebuilds, so an older state never overwrites a newer one mid-flight.
    private let rebuildLock = Mutex(())

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
        try rebuildLock.withLock { _ in
            let current = snapshots.current
            if !force, current.generation > 0, try latestGeneration() == current.generation { return }
            let snapshot = try SnapshotBuilder.build(from: store)
            snapshots.install(snapshot)
            if let file = options.snapshotFile {
                do { try SnapshotFile.save(snapshot, to: file) } catch {
                    options.log("snapshot: could not persist (\(error))")
                }
            }
        }
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
