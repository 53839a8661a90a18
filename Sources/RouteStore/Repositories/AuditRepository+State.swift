import Foundation

/// The committed state as the audit log records it. Every write appends exactly one entry, so the newest
/// entry's id counts the writes, and its random write token tells apart two histories of the same length
/// (a failover that lost acknowledged writes can reuse their ids).
public struct AuditHead: Sendable, Hashable {
    /// The newest entry's id; 0 when the log is empty.
    public var id: Int64
    /// The newest entry's write token; nil when the log is empty.
    public var writeToken: String?
    /// The write token of the entry asked about; nil when there is no such entry (a failover lost it).
    public var askedToken: String?

    public init(id: Int64, writeToken: String?, askedToken: String?) {
        self.id = id
        self.writeToken = writeToken
        self.askedToken = askedToken
    }
}

/// The entries after one entry of the audit log.
public struct AuditTail: Sendable, Hashable {
    /// How many entries follow it.
    public var count: Int
    /// The least write token among them: the only one's when `count` is 1.
    public var writeToken: String?
    /// The write token of the entry itself; nil when there is no such entry.
    public var startToken: String?

    public init(count: Int, writeToken: String?, startToken: String?) {
        self.count = count
        self.writeToken = writeToken
        self.startToken = startToken
    }
}

extension AuditRepository {
    /// The newest entry, and the write token of entry `id`: one round trip, in the caller's transaction.
    public func head(withTokenOf id: Int64, in tx: Transaction) throws -> AuditHead {
        try head(withTokenOf: id, on: tx.connection)
    }

    /// The newest entry, and the write token of entry `id`, on a connection outside any transaction.
    public func head(withTokenOf id: Int64, on connection: Connection) throws -> AuditHead {
        let rows = try connection.query(
            """
            SELECT coalesce(latest.id, 0) AS generation, latest.write_token::text AS token,
                (SELECT write_token::text FROM audit WHERE id = \(id)) AS asked_token
            FROM (SELECT 1) AS one
            LEFT JOIN (SELECT id, write_token FROM audit ORDER BY id DESC LIMIT 1) AS latest ON true
            """)
        guard let row = rows.first else { return AuditHead(id: 0, writeToken: nil, askedToken: nil) }
        return AuditHead(
            id: Int64(try row.int("generation")), writeToken: try row.optionalString("token"),
            askedToken: try row.optionalString("asked_token"))
    }

    /// The entries after entry `id` (all of them for 0), and that entry's own write token.
    public func tail(after id: Int64, in tx: Transaction) throws -> AuditTail {
        let rows = try tx.query(
            """
            SELECT count(*) AS n, min(write_token::text) AS token,
                (SELECT write_token::text FROM audit WHERE id = \(id)) AS start_token
            FROM audit WHERE id > \(id)
            """)
        guard let row = rows.first else { return AuditTail(count: 0, writeToken: nil, startToken: nil) }
        return AuditTail(
            count: try row.int("n"), writeToken: try row.optionalString("token"),
            startToken: try row.optionalString("start_token"))
    }
}

extension AuditRepository {
    /// Whether every entry after `id` up to `through` is a write by one of `methods`, on a connection
    /// outside any transaction. Audit ids commit in order (writes hold the write lock), so the range is
    /// complete once `through` is seen.
    public func onlyMethods(_ methods: [String], after id: Int64, through: Int64, on connection: Connection) throws
        -> Bool
    {
        let rows = try connection.query(
            """
            SELECT count(*) AS n FROM audit
            WHERE id > \(id) AND id <= \(through) AND method <> ALL(\(methods)::text[])
            """)
        return try rows.first?.int("n") == 0
    }
}
