import CLibPQ
import Foundation

/// One libpq connection. It has one owner at a time: the pool hands it to one thread, which returns it
/// when done, so the handle is never used concurrently.
///
/// Every `PGresult` is copied into `SQLRows` and freed before a call returns; `deinit` calls `PQfinish`.
public final class Connection {
    private let handle: OpaquePointer
    /// Prepared statements of this session: SQL text → statement name.
    private var prepared: [String: String] = [:]

    /// Connects to `url` (a libpq URI or `key=value` string; libpq's `PG*` variables fill the gaps).
    /// Throws `.connectionFailed` with libpq's message in `logDetail`.
    public init(url: String, connectTimeoutSeconds: Int = 5) throws {
        // Defaults come before `dbname` so that values in the URL win.
        let parameters: [(String, String)] = [
            ("connect_timeout", String(connectTimeoutSeconds)),
            ("fallback_application_name", "routereg"),
            // Detect a vanished server on an idle connection (e.g. the LISTEN connection) within a minute.
            ("keepalives", "1"), ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
            ("dbname", url),
        ]
        let keywords = parameters.map { strdup($0.0) }
        let values = parameters.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let keywordPointers = keywords.map { UnsafePointer($0) } + [nil]
        let valuePointers = values.map { UnsafePointer($0) } + [nil]
        guard let handle = PQconnectdbParams(keywordPointers, valuePointers, 1) else {
            throw StoreError(.connectionFailed, detail: "out of memory")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw StoreError(.connectionFailed, detail: message)
        }
        self.handle = handle
        // Notices (e.g. "relation already exists, skipping") would go to stderr; they carry nothing we act on.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // Fixed output formats, so SQLRow can parse timestamps and bytea whatever the server's defaults.
        try execute(script: "SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO, MDY'; SET bytea_output TO 'hex'")
    }

    deinit { PQfinish(handle) }

    /// False once libpq has noticed that the connection broke (it notices on the next use).
    public var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

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
            try rows(PQexecParams(handle, query.sql, count, nil, values, nil, nil, 0), query)
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
            _ = try rows(PQprepare(handle, name, sql, Int32(query.binds.count), nil), query)
            prepared[sql] = name
        }
        return try withParameters(query) { count, values in
            try rows(PQexecPrepared(handle, name, count, values, nil, nil, 0), query)
        }
    }

    /// Runs SQL text without parameters, possibly several statements (`PQexec`): only for text the code
    /// controls, such as migration files and session setup.
    public func execute(script: String) throws {
        _ = try rows(PQexec(handle, script), nil)
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
