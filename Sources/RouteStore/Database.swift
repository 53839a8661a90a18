import Foundation

/// A PostgreSQL database behind a bounded pool of connections, with a synchronous, thread-safe API.
///
/// Requests run on libmicrohttpd's worker threads, not on Swift's cooperative pool, so every method blocks
/// the calling thread. At most `poolSize` connections exist; a caller waits for a free one up to
/// `acquireTimeout`, then gets `.poolTimeout` (UNAVAILABLE). Broken connections are dropped and replaced on
/// the next use, so the pool recovers by itself after the server restarts. A new connection is opened on a
/// thread of its own, so its caller never waits for it past the caller's deadline.
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
        /// How long connecting may take across every host of a multi-host URL (lowered to the caller's
        /// remaining time, but never below 2 s, so a connection the caller gave up on can still serve the next).
        public var connectTimeoutSeconds: Int
        /// The deadline of work whose caller gave none: every wait on the database has one.
        public var defaultTimeout: Duration
        /// An idle connection older than this is checked with a round trip before it is handed out.
        public var idleValidationAfter: Duration

        public init(
            url: String, poolSize: Int = 8, acquireTimeout: Duration = .seconds(5), transactionRetries: Int = 5,
            connectTimeoutSeconds: Int = 5, defaultTimeout: Duration = .seconds(10),
            idleValidationAfter: Duration = .seconds(30)
        ) {
            self.url = url
            self.poolSize = max(1, poolSize)
            self.acquireTimeout = acquireTimeout
            self.transactionRetries = transactionRetries
            self.connectTimeoutSeconds = connectTimeoutSeconds
            self.defaultTimeout = defaultTimeout
            self.idleValidationAfter = idleValidationAfter
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

    /// Closes idle connections and refuses new work; connections in use close when returned, and those being
    /// opened once made.
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
    /// Every wait (for the pool, to connect, for each statement) ends by `deadline` (default: now +
    /// `defaultTimeout`).
    @discardableResult
    public func withConnection<T>(deadline: ContinuousClock.Instant? = nil, _ body: (Connection) throws -> T) throws
        -> T
    {
        let connection = try acquire(deadline: deadline ?? .now + configuration.defaultTimeout)
        var reusable = true
        defer { release(connection, reusable: reusable) }
        do {
            return try body(connection)
        } catch let error as StoreError where error.isConnectionFailure {
            reusable = false
            throw error
        }
    }

    /// Takes a connection from the pool, opening one if there is room, waiting otherwise (at most
    /// `acquireTimeout`, and never past `deadline`, which the connection then carries for its statements).
    func acquire(deadline: ContinuousClock.Instant) throws -> Connection {
        let waitUntil = min(deadline, .now + configuration.acquireTimeout)
        let wakeAt = Date().addingTimeInterval(max(0, ContinuousClock.now.duration(to: waitUntil).seconds))
        condition.lock()
        while true {
            if closed {
                condition.unlock()
                throw StoreError(.poolClosed)
            }
            if let connection = idle.popLast() {
                condition.unlock()
                connection.deadline = deadline
                if validate(connection, until: deadline) { return connection }
                condition.lock()
                open -= 1
                continue
            }
            if open < configuration.poolSize {
                let remaining = Int(ContinuousClock.now.duration(to: deadline).seconds.rounded(.up))
                guard remaining > 0 else {
                    condition.unlock()
                    throw StoreError(.deadlineExceeded, detail: "deadline passed before connecting")
                }
                open += 1
                condition.unlock()
                return try connect(
                    connectTimeoutSeconds: min(configuration.connectTimeoutSeconds, remaining), deadline: deadline)
            }
            if !condition.wait(until: wakeAt) {
                condition.unlock()
                throw StoreError(.poolTimeout, detail: "no connection free within \(configuration.acquireTimeout)")
            }
        }
    }

    /// Opens a connection already counted in `open` on a thread of its own (a `ConnectAttempt`), and waits for
    /// it until `deadline`.
    ///
    /// Connecting may outlast a short deadline (it gets 2 s at least, across every host of a failover URL).
    /// The caller then fails at its deadline, and the connection, once made, joins the pool for the next
    /// caller: after a failover, a caller that threw it away would leave the next one to connect afresh, and
    /// with short deadlines every write would fail.
    private func connect(connectTimeoutSeconds: Int, deadline: ContinuousClock.Instant) throws -> Connection {
        let attempt = ConnectAttempt(
            url: configuration.url, connectTimeoutSeconds: connectTimeoutSeconds, deadline: deadline
        ) { [self] outcome in
            condition.lock()
            if case .success(let connection) = outcome, !closed {
                idle.append(connection)
            } else {
                open -= 1
            }
            condition.signal()
            condition.unlock()
            // A connection made after `close` closes (PQfinish) as `outcome` goes, outside the lock.
        }
        switch attempt.wait(until: deadline) {
        case .success(let connection)?:
            return connection
        case .failure(let error)?:
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        case nil:
            throw StoreError(.deadlineExceeded, detail: "not connected before the deadline; connecting goes on")
        }
    }

    /// Whether an idle connection can be handed out: a server that restarted or cut the session shows as
    /// pending input (no round trip); one idle for longer than `idleValidationAfter` also answers a round
    /// trip (bounded by a second and `deadline`), since a host that vanished silently shows nothing.
    private func validate(_ connection: Connection, until deadline: ContinuousClock.Instant) -> Bool {
        guard connection.checkIdleConnection() else { return false }
        guard connection.idleSince.duration(to: .now) > configuration.idleValidationAfter else { return true }
        connection.deadline = min(deadline, .now + .seconds(1))
        defer { connection.deadline = deadline }
        return (try? connection.query(prepared: "SELECT 1 AS alive")) != nil && connection.isHealthy
    }

    /// Returns a connection; one that broke or was left inside a transaction is closed instead.
    func release(_ connection: Connection, reusable: Bool) {
        connection.idleSince = .now
        let keep = reusable && connection.isHealthy && connection.isIdle
        condition.lock()
        var stale: [Connection] = []
        if connection.abandoned {
            // The server did not answer in time: it may be hung, and then every idle session to it is as good
            // as dead. Drop them all, so the next callers connect afresh (to the new primary after a failover)
            // instead of each spending its deadline on one of them.
            stale = idle
            idle.removeAll()
            open -= stale.count
        }
        if keep && !closed {
            idle.append(connection)
        } else {
            open -= 1
        }
        condition.signal()
        condition.unlock()
        _ = stale  // PQfinish runs as the last references go, outside the lock.
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
