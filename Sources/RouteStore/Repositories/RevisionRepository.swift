import Foundation
import RouteCore

/// An immutable generated document of a domain (`domains/{host}/revisions/{number}`).
public struct StoredRevision: Sendable, Hashable {
    public var host: String
    /// Which generated file it holds.
    public var kind: DocumentKind
    /// 1, 2, 3… per (host, kind), without gaps.
    public var number: Int
    /// The document exactly as served.
    public var bytes: Data
    public var etag: String
    /// The event that caused it, e.g. `publish ios 5.12.0`.
    public var cause: String
    /// JSON of the live versions it was computed from.
    public var liveVersions: Data
    public var createTime: Date

    public init(
        host: String, kind: DocumentKind, number: Int, bytes: Data, etag: String, cause: String, liveVersions: Data,
        createTime: Date
    ) {
        self.host = host
        self.kind = kind
        self.number = number
        self.bytes = bytes
        self.etag = etag
        self.cause = cause
        self.liveVersions = liveVersions
        self.createTime = createTime
    }
}

/// The newest revision of a (host, kind), without its bytes.
public struct RevisionHead: Sendable, Hashable {
    public var number: Int
    public var etag: String

    public init(number: Int, etag: String) {
        self.number = number
        self.etag = etag
    }
}

/// Revisions of the generated files: append-only (the table refuses UPDATE and DELETE).
/// Every method runs in the caller's transaction.
public struct RevisionRepository: Sendable {
    public init() {}

    private static let columns: SQLQuery = "host, kind, number, bytes, etag, cause, live_versions, created_at"

    /// Appends the next revision of (host, kind): number = latest + 1.
    ///
    /// Call it under the write lock (`Transaction.lockForWrite()`, which `Store.write` takes) so concurrent
    /// writers take turns and numbers never collide or skip; the primary key (host, kind, number) is the
    /// backstop that refuses a duplicate if a caller forgets.
    public func append(
        host: String, kind: DocumentKind, bytes: Data, etag: String, cause: String, liveVersions: SQLJSON,
        in tx: Transaction
    ) throws -> StoredRevision {
        try decode(
            tx.query(
                """
                INSERT INTO revisions (host, kind, number, bytes, etag, cause, live_versions)
                SELECT \(host), \(kind.rawValue), coalesce(max(number), 0) + 1, \(bytes)::bytea, \(etag), \(cause),
                    \(liveVersions)::jsonb
                FROM revisions WHERE host = \(host) AND kind = \(kind.rawValue)
                RETURNING \(RevisionRepository.columns)
                """)[0])
    }

    /// The newest revision of (host, kind), or nil if there is none.
    public func latest(host: String, kind: DocumentKind, in tx: Transaction) throws -> StoredRevision? {
        try tx.query(
            prepared: """
                SELECT \(RevisionRepository.columns) FROM revisions WHERE host = \(host) AND kind = \(kind.rawValue)
                ORDER BY number DESC LIMIT 1
                """
        ).first.map(decode)
    }

    /// Revision `number` of (host, kind), or nil.
    public func get(host: String, kind: DocumentKind, number: Int, in tx: Transaction) throws -> StoredRevision? {
        try tx.query(
            prepared: """
                SELECT \(RevisionRepository.columns) FROM revisions
                WHERE host = \(host) AND kind = \(kind.rawValue) AND number = \(number)
                """
        ).first.map(decode)
    }

    /// The revisions of (host, kind), newest first.
    public func list(
        host: String, kind: DocumentKind, _ page: PageRequest = PageRequest(), in tx: Transaction
    ) throws -> Page<StoredRevision> {
        let before = try PageToken.read(page.pageToken, as: Int.self) ?? Int(Int32.max)
        let rows = try tx.query(
            """
            SELECT \(RevisionRepository.columns) FROM revisions
            WHERE host = \(host) AND kind = \(kind.rawValue) AND number < \(before)
            ORDER BY number DESC LIMIT \(page.limit + 1)
            """)
        return PageToken.page(try rows.map(decode), limit: page.limit) { $0.number }
    }

    /// The number and ETag of the newest revision of each of `hosts`' files, without their bytes: what a
    /// write compares its generated files with, and what a snapshot rebuild checks before fetching bytes.
    /// One index lookup per (host, kind), however long the history.
    public func heads(hosts: [String], in tx: Transaction) throws -> [DocumentKey: RevisionHead] {
        guard !hosts.isEmpty else { return [:] }
        var result: [DocumentKey: RevisionHead] = [:]
        for row in try tx.query(
            prepared: """
                SELECT h.host, k.kind, r.number, r.etag
                FROM unnest(\(hosts)::text[]) AS h(host)
                CROSS JOIN (VALUES ('aasa'), ('assetlinks')) AS k(kind)
                CROSS JOIN LATERAL (
                    SELECT number, etag FROM revisions WHERE host = h.host AND kind = k.kind
                    ORDER BY number DESC LIMIT 1) AS r
                """)
        {
            guard let kind = DocumentKind(rawValue: try row.string("kind")) else { continue }
            result[DocumentKey(host: try row.string("host"), kind: kind)] = RevisionHead(
                number: try row.int("number"), etag: try row.string("etag"))
        }
        return result
    }

    private func decode(_ row: SQLRow) throws -> StoredRevision {
        guard let kind = DocumentKind(rawValue: try row.string("kind")) else {
            throw StoreError(.decodingFailed, detail: "revisions.kind")
        }
        return StoredRevision(
            host: try row.string("host"), kind: kind, number: try row.int("number"), bytes: try row.bytes("bytes"),
            etag: try row.string("etag"), cause: try row.string("cause"), liveVersions: try row.json("live_versions"),
            createTime: try row.date("created_at"))
    }
}
