import Foundation
import RouteStore
import Synchronization

/// Keeps a `RegistryService` in step with its database: applies migrations and loads the snapshot at start
/// (or serves the persisted one while the database is away, retrying in the background), and rebuilds the
/// snapshot whenever another server's write is announced (LISTEN/NOTIFY) or the listener reconnects.
public final class RegistryRuntime: Sendable {
    public let service: RegistryService
    private let listener: ChangeListener
    private let stopped = Atomic<Bool>(false)
    private let log: @Sendable (String) -> Void

    /// - Parameter databaseURL: the same database the service's store uses (the listener needs its own
    ///   connection).
    public init(service: RegistryService, databaseURL: String, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.service = service
        self.log = log
        listener = ChangeListener(
            url: databaseURL,
            onChange: { _ in Self.refresh(service, log: log) },
            // Notifications sent while the connection was down are lost: catch up by comparing generations.
            onReconnect: { Self.refresh(service, log: log) })
    }

    /// Migrates and loads the snapshot; returns true when the database answered. When it did not, the
    /// persisted snapshot is served and a background thread retries until the database is back.
    /// Throws only for a migration that cannot be applied (e.g. an applied file changed).
    @discardableResult
    public func start() throws -> Bool {
        let migrated = try migrate()
        // LISTEN before loading: a write committed in between (say, the last one of a server that was just
        // killed, landing late) is then announced; loaded first, the snapshot missed it until the next poll.
        // With the database down there is nothing to wait for: the listener keeps trying in the background.
        listener.start(timeout: migrated ? .seconds(2) : .zero)
        let ready = migrated && service.start()
        if !ready {
            if service.snapshot.generation == 0 { service.start() }
            log("database unavailable: serving the last persisted snapshot; retrying in the background")
            Thread.detachNewThread { [self] in retryUntilReady() }
        }
        Thread.detachNewThread { [self] in pollForMissedChanges() }
        return ready
    }

    /// A safety net under LISTEN/NOTIFY: a notification sent while this server's listener was reconnecting
    /// is lost, so every `pollInterval` compare the database's generation with the snapshot's (one cheap
    /// query) and rebuild when they differ.
    private func pollForMissedChanges() {
        while !stopped.load(ordering: .relaxed) {
            Thread.sleep(forTimeInterval: Self.pollInterval)
            if stopped.load(ordering: .relaxed) { return }
            try? service.refreshSnapshot()
        }
    }

    /// Seconds between two checks for missed changes.
    static let pollInterval: TimeInterval = 2

    /// Stops the listener and the background retry, and waits until the last snapshot is persisted.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        listener.stop()
        service.flushPersistedSnapshot()
    }

    private func retryUntilReady() {
        while !stopped.load(ordering: .relaxed) {
            Thread.sleep(forTimeInterval: 0.5)
            if (try? migrate()) == true, (try? service.refreshSnapshot(force: true)) != nil {
                log("database reachable: snapshot loaded")
                return
            }
        }
    }

    /// Applies pending migrations; false when the database is unreachable.
    private func migrate() throws -> Bool {
        do {
            let applied = try MigrationRunner.bundled().run(on: service.store.database)
            if !applied.isEmpty { log("applied migrations: \(applied.joined(separator: ", "))") }
            return true
        } catch let error as StoreError where error.isConnectionFailure || error.code == .poolTimeout {
            return false
        }
    }

    /// Refreshes, retrying briefly: the notification may arrive just as pooled connections are being
    /// replaced (the first use of a connection the server cut fails).
    private static func refresh(_ service: RegistryService, log: @Sendable (String) -> Void) {
        for attempt in 1...3 {
            do {
                try service.refreshSnapshot()
                return
            } catch {
                if attempt == 3 { log("snapshot refresh failed: \(error)") }
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            }
        }
    }
}
