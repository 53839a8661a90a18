import CLibPQ
import Foundation

/// A few administrative statements against a PostgreSQL server, each on a short-lived connection:
/// is it up, does a database exist, create one, drop one.
///
/// Used to create the embedded cluster's database and by the test harness to give each suite its own
/// database. Not a general query API (that is the store's connection pool). Statements here never carry
/// bound values in their error messages; the server's primary message is kept because these errors are for
/// the operator or the test log, never for API clients.
public struct PostgresServerAdmin: Sendable {
    /// A libpq connection string (URI or key=value) for any database on the server except the one being dropped.
    public let url: String

    /// Talks to the server at `url`.
    public init(url: String) {
        self.url = url
    }

    /// Whether the server accepts connections (libpq's `PQping`: does not need valid credentials).
    public func isAcceptingConnections() -> Bool {
        PQping(url) == PQPING_OK
    }

    /// Waits while the server answers but rejects connections (starting up, or in crash recovery, which can
    /// take a while); true once it accepts them, false if nothing answers or `timeout` passes.
    func waitWhileStarting(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let answer = PQping(url)
            if answer == PQPING_OK { return true }
            guard answer == PQPING_REJECT, Date() < deadline else { return false }
            usleep(50_000)
        }
    }

    /// Whether a database with exactly this name exists.
    public func databaseExists(_ name: String) throws -> Bool {
        try withConnection { connection in
            let result = name.withCString { value -> OpaquePointer? in
                var values: [UnsafePointer<CChar>?] = [value]
                return PQexecParams(
                    connection, "SELECT 1 FROM pg_database WHERE datname = $1", 1, nil, &values, nil, nil, 0)
            }
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_TUPLES_OK else {
                throw failure("checking for database \(name)", result: result, connection: connection)
            }
            return PQntuples(result) > 0
        }
    }

    /// Creates an empty database; throws if it already exists.
    public func createDatabase(_ name: String) throws {
        try execute("CREATE DATABASE \(Self.quoteIdentifier(name))", what: "creating database \(name)")
    }

    /// Drops a database if it exists; with `force`, first disconnects its sessions (PostgreSQL 13+).
    public func dropDatabase(_ name: String, force: Bool = true) throws {
        let suffix = force ? " WITH (FORCE)" : ""
        try execute("DROP DATABASE IF EXISTS \(Self.quoteIdentifier(name))\(suffix)", what: "dropping database \(name)")
    }

    /// Runs one statement without parameters (DDL cannot take any); `what` names it in errors.
    public func execute(_ sql: String, what: String) throws {
        try withConnection { connection in
            let result = PQexec(connection, sql)
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                throw failure(what, result: result, connection: connection)
            }
        }
    }

    /// `"name"` with embedded quotes doubled: the SQL spelling of an identifier.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private func withConnection<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        guard let connection = PQconnectdb(url) else {
            throw EmbeddedPostgresError(.databaseFailed, "out of memory connecting to PostgreSQL")
        }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw EmbeddedPostgresError(.databaseFailed, "cannot connect to PostgreSQL: \(Self.message(connection))")
        }
        return try body(connection)
    }

    private func failure(_ what: String, result: OpaquePointer?, connection: OpaquePointer) -> EmbeddedPostgresError {
        var detail = Self.message(connection)
        if let result, let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))) {
            detail = String(cString: primary)
        }
        return EmbeddedPostgresError(.databaseFailed, "\(what) failed: \(detail)")
    }

    private static func message(_ connection: OpaquePointer) -> String {
        guard let text = PQerrorMessage(connection) else { return "unknown error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
