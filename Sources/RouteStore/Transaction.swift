import CLibPQ
import Foundation

/// An open transaction: the handle repositories take, so the service can compose several of them in one
/// unit of work. Valid only inside the `withTransaction` closure that received it.
public final class Transaction {
    /// The connection the transaction runs on.
    public let connection: Connection

    init(connection: Connection) { self.connection = connection }

    /// Runs one parameterized statement.
    @discardableResult
    public func query(_ query: SQLQuery) throws -> SQLRows { try connection.query(query) }

    /// Runs one parameterized statement as a prepared statement (for hot queries).
    @discardableResult
    public func query(prepared query: SQLQuery) throws -> SQLRows { try connection.query(prepared: query) }

    /// Takes the registry-wide write lock until the transaction ends.
    ///
    /// Every write that changes what the generated files depend on takes it first, so such writes run one
    /// at a time and per-domain revision numbers (max + 1) never collide or skip. One lock rather than one
    /// per app, because a domain's AASA combines several apps; writes are rare, reads never take it.
    public func lockForWrite() throws {
        try query(prepared: "SELECT pg_advisory_xact_lock(\(Transaction.writeLockKey))")
    }

    /// The advisory lock key of the registry-wide write lock ("routereg" in ASCII).
    public static let writeLockKey: Int64 = 0x726f_7574_6572_6567
}

/// The isolation level of a transaction.
public enum IsolationLevel: String, Sendable {
    /// Each statement sees what was committed before it started: what writes under the write lock need.
    case readCommitted = "READ COMMITTED"
    /// One snapshot for the whole transaction: for consistent multi-table reads (`loadRegistry`).
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"
}

extension Database {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// A serialization failure or deadlock reruns the whole closure (up to `transactionRetries` times, then
    /// the error, which maps to ABORTED), so `body` must only touch the database and local state. A
    /// connection found dead when the transaction starts is replaced transparently; one that dies later
    /// fails with a connection error (UNAVAILABLE), and if it dies while committing, with
    /// `.commitOutcomeUnknown`: the commit is never resent, since it may have landed.
    @discardableResult
    ///
    /// Nothing waits past `deadline` (default: now + `defaultTimeout`): the pool, the connect, each statement
    /// (also bounded on the server by `statement_timeout` and `lock_timeout`, so a live server stops working on
    /// an abandoned transaction too). When the deadline has passed before COMMIT, the transaction is rolled
    /// back (`.deadlineExceeded`), never committed late.
    public func withTransaction<T>(
        isolation: IsolationLevel = .readCommitted, readOnly: Bool = false, deadline: ContinuousClock.Instant? = nil,
        _ body: (Transaction) throws -> T
    ) throws -> T {
        let deadline = deadline ?? .now + configuration.defaultTimeout
        var attempt = 0
        var staleConnections = 0
        while true {
            attempt += 1
            do {
                return try runTransaction(isolation: isolation, readOnly: readOnly, deadline: deadline, body)
            } catch let error as StoreError where error.isRetryable && attempt <= configuration.transactionRetries {
                // Jittered pause so the transactions that collided do not collide again in lockstep.
                usleep(UInt32.random(in: 1_000...5_000) * UInt32(attempt))
            } catch let failure as BeginFailed {
                // Nothing ran yet, so trying again on a fresh connection is safe; every pooled connection
                // may be stale after a server restart, hence up to `poolSize` tries.
                staleConnections += 1
                attempt -= 1
                if staleConnections > configuration.poolSize { throw failure.error }
            }
        }
    }

    /// The connection failed before BEGIN went through.
    private struct BeginFailed: Error { var error: StoreError }

    private func runTransaction<T>(
        isolation: IsolationLevel, readOnly: Bool, deadline: ContinuousClock.Instant, _ body: (Transaction) throws -> T
    ) throws -> T {
        let connection = try acquire(deadline: deadline)
        var reusable = true
        defer { release(connection, reusable: reusable) }
        let milliseconds = max(1, Int(ContinuousClock.now.duration(to: deadline).seconds * 1000))
        do {
            try connection.execute(
                script: "BEGIN ISOLATION LEVEL \(isolation.rawValue)\(readOnly ? " READ ONLY" : "");"
                    + " SET LOCAL statement_timeout = \(milliseconds); SET LOCAL lock_timeout = \(milliseconds)")
        } catch let error as StoreError where error.isConnectionFailure {
            reusable = false
            throw BeginFailed(error: error)
        }
        let value: T
        do {
            value = try body(Transaction(connection: connection))
        } catch {
            if let storeError = error as? StoreError, storeError.isConnectionFailure {
                reusable = false
            } else {
                do { try connection.execute(script: "ROLLBACK") } catch { reusable = false }
            }
            throw error
        }
        if PQtransactionStatus(connection.pgconn) == PQTRANS_INERROR {
            // A statement failed and the body carried on: COMMIT would silently roll back. Say so instead.
            do { try connection.execute(script: "ROLLBACK") } catch { reusable = false }
            throw StoreError(
                .serverError, sqlState: .inFailedSQLTransaction, detail: "the transaction failed and was rolled back")
        }
        if ContinuousClock.now >= deadline {
            // Too late to commit: the caller has stopped waiting. Closing the session rolls back even if the
            // server is hung now and wakes up later.
            reusable = false
            throw StoreError(.deadlineExceeded, detail: "the deadline passed before COMMIT; rolled back")
        }
        do {
            try connection.execute(script: "COMMIT")
        } catch let error as StoreError where error.isConnectionFailure || error.code == .deadlineExceeded {
            reusable = false
            throw StoreError(.commitOutcomeUnknown, sqlState: error.sqlState, detail: error.logDetail)
        }
        return value
    }
}
