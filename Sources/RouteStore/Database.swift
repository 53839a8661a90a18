import Foundation

/// A PostgreSQL database behind a bounded pool of connections, with a synchronous, thread-safe API.
///
/// Requests run on libmicrohttpd's worker threads, not on Swift's cooperative pool, so every method blocks
/// the calling thread. At most `poolSize` connections exist; a caller waits for a free one up to
/// `acquireTimeout`, then gets `.poolTimeout` (UNAVAILABLE). Broken connections are dropped and replaced on
/// the next use, so the pool recovers by itself after the server restarts.
public final class Database: @unchecked Sendable {
    // @unchecked: all mutable state (`idle`, `open`, `closed`) is only touched with `condition` locked.

    /// How to reach the server and how to size and pace the pool.
    public struct Configuration: Sendable {
        /// A libpq connection URI or `key=value` string.
        public var url: String
        /// The most connections open at once.
        public var poolSize: Int
        /// How long a caller waits for a free connection before `.poolTimeout`.
        public var acquireTimeout: Duration
        /// How many times a transaction is rerun after a serialization failure or deadlock.
        public var transactionRetries: Int
        /// libpq's `connect_timeout`.
        public var connectTimeoutSeconds: Int

        public init(
            url: String, poolSize: Int = 8, acquireTimeout: Duration = .seconds(5), transactionRetries: Int = 5,
            connectTimeoutSeconds: Int = 5
        ) {
            self.url = url
            self.poolSize = max(1, poolSize)
            self.acquireTimeout = acquireTimeout
            self.transactionRetries = transactionRetries
            self.connectTimeoutSeconds = connectTimeoutSeconds
        }
    }

    public let configuration: Configuration
    private let condition = NSCondition()
    private var idle: [Connection] = []
    private var open = 0
    private var closed = false

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// A pool of the default size for `url`.
    public convenience init(url: String, poolSize: Int = 8) {
        self.init(Configuration(url: url, poolSize: poolSize))
    }

    deinit { close() }

    /// Closes idle connections and refuses new work; connections in use close when returned.
    public func close() {
        condition.lock()
        closed = true
        let dropped = idle
        idle.removeAll()
        open -= dropped.count
        condition.broadcast()
        condition.unlock()
        _ = dropped  // PQfinish runs as the last references go, outside the lock.
    }

    /// Connections currently open (idle or in use): for metrics and tests.
    public var openConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return open
    }

    /// Runs `body` with a connection of its own, outside any transaction (each statement commits alone).
    @discardableResult
    public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try acquire()
        var reusable = true
        defer { release(connection, reusable: reusable) }
        do {
            return try body(connection)
        } catch let error as StoreError where error.isConnectionFailure {
            reusable = false
            throw error
        }
    }

    /// Takes a connection from the pool, opening one if there is room, waiting otherwise.
    func acquire() throws -> Connection {
        let deadline = Date().addingTimeInterval(configuration.acquireTimeout.seconds)
        condition.lock()
        while true {
            if closed {
                condition.unlock()
                throw StoreError(.poolClosed)
            }
            if let connection = idle.popLast() {
                condition.unlock()
                if connection.checkIdleConnection() { return connection }
                condition.lock()
                open -= 1
                continue
            }
            if open < configuration.poolSize {
                open += 1
                condition.unlock()
                do {
                    return try Connection(
                        url: configuration.url, connectTimeoutSeconds: configuration.connectTimeoutSeconds)
                } catch {
                    condition.lock()
                    open -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw StoreError(.poolTimeout, detail: "no connection free within \(configuration.acquireTimeout)")
            }
        }
    }

    /// Returns a connection; one that broke or was left inside a transaction is closed instead.
    func release(_ connection: Connection, reusable: Bool) {
        let keep = reusable && connection.isHealthy && connection.isIdle
        condition.lock()
        if keep && !closed {
            idle.append(connection)
        } else {
            open -= 1
        }
        condition.signal()
        condition.unlock()
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
