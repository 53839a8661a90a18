import CLibPQ
import Foundation

/// One libpq connection. It has one owner at a time: the thread that opens it, then the one it is handed to
/// (a pool's caller, which returns it when done, or a session lock's owner), so the handle is never used
/// concurrently.
///
/// Every `PGresult` is copied into `SQLRows` and freed before a call returns; `deinit` calls `PQfinish`.
///
/// Every statement waits for the server at most until `deadline` (libpq's asynchronous API polled on the
/// socket): a hung server (SIGSTOP, a frozen VM) still ACKs TCP and never answers, and neither the server's
/// `statement_timeout` nor TCP keepalives can end that wait. A statement that overruns abandons the
/// connection: nothing more is sent on it and the pool closes it, so a transaction cut off before COMMIT
/// can only roll back, however late the server wakes up.
public final class Connection {
    private let handle: OpaquePointer
    /// Prepared statements of this session: SQL text → statement name.
    private var prepared: [String: String] = [:]
    /// When the statements of the current owner must have answered by (the pool sets it on every acquire);
    /// nil: each statement may take `defaultStatementTimeout` from when it is sent.
    public var deadline: ContinuousClock.Instant?
    /// The bound of a statement on a connection without a deadline (one made outside a pool).
    public static let defaultStatementTimeout: Duration = .seconds(30)
    /// Set once a wait overran its deadline: the session's state is unknown, so it is never used again.
    private(set) var abandoned = false
    /// When the connection was last returned to the pool (idle validation).
    var idleSince: ContinuousClock.Instant = .now

    /// Connects to `url` (a libpq URI or `key=value` string; libpq's `PG*` variables fill the gaps).
    /// Throws `.connectionFailed` with libpq's message in `logDetail`, or `.deadlineExceeded`.
    ///
    /// Connecting ends within `connectTimeoutSeconds` (2 s at least, or the URL's `connect_timeout` when
    /// shorter) across every host of a multi-host URL, not per host: the hosts are raced (`ConnectRace`), so
    /// a hung one costs a quarter of a second, and names are resolved under the same bound.
    public init(url: String, connectTimeoutSeconds: Int = 5, deadline: ContinuousClock.Instant? = nil) throws {
        let plan = try ConnectPlan(conninfo: url)
        let started = ContinuousClock.now
        var connectDeadline = started + .seconds(max(2, connectTimeoutSeconds))
        if let seconds = plan.connectTimeoutSeconds {
            connectDeadline = min(connectDeadline, started + .seconds(seconds))
        }
        // Defaults come first so that values in the URL win.
        let defaults: [(String, String)] = [
            ("fallback_application_name", "routereg"),
            // Detect a vanished server or network within about 25 s on an idle connection (the LISTEN one),
            // and give up on unacknowledged data after 10 s (tcp_user_timeout, milliseconds).
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "10000"),
        ]
        let handle = try ConnectRace(plan: plan, defaults: defaults, deadline: connectDeadline).run()
        self.handle = handle
        self.deadline = deadline
        // Non-blocking sends: a statement is queued and flushed under the deadline, never written blockingly
        // into the socket of a server that stopped reading.
        PQsetnonblocking(handle, 1)
        // Notices (e.g. "relation already exists, skipping") would go to stderr; they carry nothing we act on.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // Fixed output formats, so SQLRow can parse timestamps and bytea whatever the server's defaults. The
        // setup gets at least 2 s even when connecting used up the caller's deadline (hung hosts before the
        // one that answered, a slow resolver): the pool's caller has failed at its deadline meanwhile (the
        // pool connects on a thread of its own), and the pool keeps the working connection for the next one
        // instead of throwing it away, which after a failover would make every write fail.
        let callerDeadline = self.deadline
        self.deadline = max(callerDeadline ?? .now, .now + .seconds(2))
        try execute(script: "SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO, MDY'; SET bytea_output TO 'hex'")
        self.deadline = callerDeadline
    }

    deinit { PQfinish(handle) }

    /// False once libpq has noticed that the connection broke (it notices on the next use), or once a wait
    /// on it overran its deadline.
    public var isHealthy: Bool { !abandoned && PQstatus(handle) == CONNECTION_OK }

    /// True when no transaction is open or failed on this session.
    var isIdle: Bool { PQtransactionStatus(handle) == PQTRANS_IDLE }

    /// The server process id of this session (for `pg_terminate_backend` in tests and for logs).
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// The underlying handle, for the listener's socket wait.
    var pgconn: OpaquePointer { handle }

    /// Runs one statement with its parameters bound (`PQexecParams`, text format).
    @discardableResult
    public func query(_ query: SQLQuery) throws -> SQLRows {
        try withParameters(query) { count, values in
            try rows(send: { PQsendQueryParams(handle, query.sql, count, nil, values, nil, nil, 0) }, query)
        }
    }

    /// Runs one statement as a prepared statement of this session, preparing it on first use: for hot
    /// queries, so the server parses and plans them once per connection.
    @discardableResult
    public func query(prepared query: SQLQuery) throws -> SQLRows {
        let sql = query.sql
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "routereg_\(prepared.count + 1)"
            _ = try rows(send: { PQsendPrepare(handle, name, sql, Int32(query.binds.count), nil) }, query)
            prepared[sql] = name
        }
        return try withParameters(query) { count, values in
            try rows(send: { PQsendQueryPrepared(handle, name, count, values, nil, nil, 0) }, query)
        }
    }

    /// Runs SQL text without parameters, possibly several statements (`PQexec`): only for text the code
    /// controls, such as migration files and session setup.
    public func execute(script: String) throws {
        _ = try rows(send: { PQsendQuery(handle, script) }, nil)
    }

    /// Sends a statement and waits for its results until `deadline`; keeps the first error or the last result
    /// (a script has one result per statement).
    private func rows(send: () -> Int32, _ query: SQLQuery?) throws -> SQLRows {
        guard !abandoned else {
            throw StoreError(.connectionFailed, detail: "the connection was abandoned after a deadline")
        }
        // Out of time before anything was sent: the session is untouched and stays usable (say, a connection
        // that took the whole deadline to establish past a hung first host).
        let deadline = self.deadline ?? .now + Self.defaultStatementTimeout
        guard ContinuousClock.now < deadline else {
            throw StoreError(.deadlineExceeded, detail: "the deadline passed before the statement was sent")
        }
        guard send() == 1 else {
            throw StoreError(
                isHealthy ? .serverError : .connectionFailed, detail: String(cString: PQerrorMessage(handle)))
        }
        var kept: OpaquePointer?
        var keptFailed = false
        defer { if let kept { PQclear(kept) } }
        while true {
            try awaitResult(until: deadline)
            guard let result = PQgetResult(handle) else { break }
            let failed = !Self.succeeded(result)
            if keptFailed {
                PQclear(result)  // The first error is the one to report.
            } else {
                if let previous = kept { PQclear(previous) }
                kept = result
                keptFailed = failed
            }
        }
        let result = kept
        kept = nil
        return try rows(result, query)
    }

    private static func succeeded(_ result: OpaquePointer) -> Bool {
        let status = PQresultStatus(result)
        return status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK
    }

    /// Flushes what is queued and waits until a result can be read without blocking, or throws
    /// `.deadlineExceeded` (abandoning the connection) when `deadline` passes first.
    private func awaitResult(until deadline: ContinuousClock.Instant) throws {
        while true {
            let flushed = PQflush(handle)
            if flushed < 0 { throw StoreError(.connectionFailed, detail: String(cString: PQerrorMessage(handle))) }
            if flushed == 0 && PQisBusy(handle) == 0 { return }
            let remaining = ContinuousClock.now.duration(to: deadline)
            let milliseconds =
                remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
            guard milliseconds > 0 else {
                abandoned = true
                throw StoreError(.deadlineExceeded, detail: "no answer from the server before the deadline")
            }
            let events = Int16(POLLIN) | (flushed == 1 ? Int16(POLLOUT) : 0)
            var descriptor = pollfd(fd: PQsocket(handle), events: events, revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(milliseconds, 60_000)))
            if ready < 0 && errno != EINTR {
                throw StoreError(.connectionFailed, detail: "poll failed: \(String(cString: strerror(errno)))")
            }
            if ready > 0 && PQconsumeInput(handle) == 0 {
                throw StoreError(.connectionFailed, detail: String(cString: PQerrorMessage(handle)))
            }
        }
    }

    private func withParameters<T>(
        _ query: SQLQuery, _ body: (Int32, [UnsafePointer<CChar>?]) throws -> T
    ) throws -> T {
        // A C string ends at NUL: refuse rather than silently store a truncated value.
        if query.binds.contains(where: { $0?.utf8.contains(0) ?? false }) {
            throw StoreError(.invalidValue, detail: "a parameter contains NUL; statement: \(query.sql)")
        }
        let copies = query.binds.map { $0.map { strdup($0)! } }
        defer { copies.forEach { free($0) } }
        return try body(Int32(copies.count), copies.map { $0.map { UnsafePointer($0) } })
    }

    /// Copies a result out of libpq and frees it, or turns it into a `StoreError`.
    private func rows(_ result: OpaquePointer?, _ query: SQLQuery?) throws -> SQLRows {
        guard let result else {
            throw StoreError(.connectionFailed, detail: String(cString: PQerrorMessage(handle)))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            throw error(from: result, query)
        }
        let columnCount = PQnfields(result)
        let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        var values: [[String?]] = []
        let rowCount = PQntuples(result)
        values.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            values.append(
                (0..<columnCount).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return SQLRows(columns: columns, values: values, affectedRows: affected)
    }

    private func error(from result: OpaquePointer, _ query: SQLQuery?) -> StoreError {
        let message = String(cString: PQresultErrorMessage(result))
        let detail = query.map { "\(message) statement: \($0.sql)" } ?? message
        // PG_DIAG_SQLSTATE is the character 'C'.
        if let field = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
            let state = SQLState(rawValue: String(cString: field))
            return StoreError(
                state.isConnectionClass ? .connectionFailed : .serverError, sqlState: state, detail: detail)
        }
        // No SQLSTATE: libpq made the error itself, typically because the connection is gone.
        return StoreError(isHealthy ? .serverError : .connectionFailed, detail: detail)
    }
}

extension Connection {
    /// Checks an idle connection without a round trip: a server that restarted or terminated the session
    /// has sent an error and closed the socket, which shows as pending input. Returns false if broken.
    func checkIdleConnection() -> Bool {
        guard isHealthy else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 0) > 0 {
            if PQconsumeInput(handle) == 0 { return false }
        }
        return isHealthy
    }
}
