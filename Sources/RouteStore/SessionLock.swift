import Foundation

/// A PostgreSQL session advisory lock on a connection of its own: held for as long as that connection lives,
/// so it goes with the process if the process dies. For a role one server of a fleet takes at a time (the
/// delivery watch's observer). Every call waits at most until its deadline; acquiring never waits for
/// another holder (`pg_try_advisory_lock`).
///
/// Not thread-safe: one owner (a single thread) uses it.
public final class SessionLock {
    public let key: Int64
    private let url: String
    private var connection: Connection?

    public init(url: String, key: Int64) {
        self.url = url
        self.key = key
    }

    /// Whether this lock is held (as far as the last call knew).
    public var isHeld: Bool { connection != nil }

    /// Takes the lock if it is free; true when held afterwards. Throws when the database cannot be reached in
    /// time: `.deadlineExceeded` when `deadline` passes first.
    ///
    /// The connection is opened on a thread of its own (a `ConnectAttempt`), so connecting never keeps the
    /// caller past `deadline`. The hosts of a failover URL are raced (`ConnectRace`), so however many of them
    /// hang, the first server that can reach the primary takes the lock within a fraction of a second. A
    /// connection made after the caller gave up is closed: it took no lock, and the next attempt connects
    /// afresh.
    public func tryAcquire(deadline: ContinuousClock.Instant) throws -> Bool {
        if connection != nil { return true }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else {
            throw StoreError(.deadlineExceeded, detail: "deadline passed before connecting")
        }
        let attempt = ConnectAttempt(
            url: url, connectTimeoutSeconds: max(1, Int(remaining.components.seconds)), deadline: deadline
        ) { _ in
            // Made too late, or failed: a lock's connection serves no one else, and closes as the outcome goes.
        }
        guard let outcome = attempt.wait(until: deadline) else {
            throw StoreError(.deadlineExceeded, detail: "not connected before the deadline")
        }
        let candidate = try outcome.get()
        let rows = try candidate.query("SELECT pg_try_advisory_lock(\(key)) AS held")
        guard try rows.first?.bool("held") == true else { return false }
        connection = candidate
        return true
    }

    /// Checks that the lock's connection still answers; when it does not, the lock is considered lost (the
    /// server ends a dead session's locks) and dropped.
    public func confirm(deadline: ContinuousClock.Instant) -> Bool {
        guard let connection else { return false }
        connection.deadline = deadline
        if (try? connection.query("SELECT 1")) != nil, connection.isHealthy { return true }
        self.connection = nil
        return false
    }

    /// Releases the lock and closes its connection.
    public func release(deadline: ContinuousClock.Instant) {
        guard let connection else { return }
        connection.deadline = deadline
        _ = try? connection.query("SELECT pg_advisory_unlock(\(key))")
        self.connection = nil
    }
}
