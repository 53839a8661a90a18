import Foundation

/// What the service and the server need to know about the database server itself, behind the store so no
/// other module holds a connection or writes SQL.
extension Store {
    /// The deadline of work whose caller gave none.
    public var defaultTimeout: Duration { database.configuration.defaultTimeout }

    /// Connections the pool holds open (idle or in use): for metrics.
    public var openConnections: Int { database.openConnections }

    /// True when the database answers a trivial query within `timeout`.
    public func isReachable(timeout: Duration) -> Bool {
        (try? database.withConnection(deadline: .now + timeout) { connection in
            try connection.query("SELECT 1 AS one")
        }) != nil
    }

    /// The newest audit entry and the write token of entry `id`, on a pooled connection outside any
    /// transaction (one statement sees one snapshot), waiting for nothing past `deadline`.
    public func auditHead(withTokenOf id: Int64, deadline: ContinuousClock.Instant) throws -> AuditHead {
        try database.withConnection(deadline: deadline) { connection in
            try audit.head(withTokenOf: id, on: connection)
        }
    }

    /// Whether every write after audit entry `id` up to `through` was one of `methods`.
    public func auditOnlyMethods(
        _ methods: [String], after id: Int64, through: Int64, deadline: ContinuousClock.Instant
    ) throws -> Bool {
        try database.withConnection(deadline: deadline) { connection in
            try audit.onlyMethods(methods, after: id, through: through, on: connection)
        }
    }

    /// "host:port" of the database when it is a hot standby (`pg_is_in_recovery()`), else nil.
    public func standbyAddress(deadline: ContinuousClock.Instant) throws -> String? {
        try database.withConnection(deadline: deadline) { connection in
            let row = try connection.query(
                """
                SELECT pg_is_in_recovery() AS standby, coalesce(host(inet_server_addr()), 'local socket') AS host,
                    coalesce(inet_server_port(), 0) AS port
                """)[0]
            guard try row.optionalBool("standby") == true else { return nil }
            return "\(try row.string("host")):\(try row.int("port"))"
        }
    }
}
