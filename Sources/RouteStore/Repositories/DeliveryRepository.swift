import Foundation
import RouteCore

/// What a delivery service (Apple's CDN, Google's Digital Asset Links API) answered for one domain's document
/// at one time: a row of `delivery_observations`.
public struct DeliveryObservation: Sendable, Hashable, Codable {
    /// How the fetch ended.
    public typealias Outcome = DeliveryOutcome

    public var id: Int64
    public var host: String
    public var kind: DocumentKind
    public var observedAt: Date
    public var outcome: Outcome
    public var httpStatus: Int?
    public var size: Int?
    /// SHA-256 (hex) of the bytes served.
    public var sha256: String?
    /// SHA-256 (hex) of their meaning (canonical JSON; for Google, the statements it lists).
    public var canonicalSHA256: String?
    /// The newest revision of ours with that meaning; nil for a document we never published.
    public var matchedRevision: Int?
    /// Since when the service serves this meaning.
    public var servingSince: Date?
    public var etag: String?
    public var lastModified: String?
    public var error: String?
    public var durationMs: Int?

    public init(
        id: Int64 = 0, host: String, kind: DocumentKind, observedAt: Date = Date(), outcome: Outcome,
        httpStatus: Int? = nil, size: Int? = nil, sha256: String? = nil, canonicalSHA256: String? = nil,
        matchedRevision: Int? = nil, servingSince: Date? = nil, etag: String? = nil, lastModified: String? = nil,
        error: String? = nil, durationMs: Int? = nil
    ) {
        self.id = id
        self.host = host
        self.kind = kind
        self.observedAt = observedAt
        self.outcome = outcome
        self.httpStatus = httpStatus
        self.size = size
        self.sha256 = sha256
        self.canonicalSHA256 = canonicalSHA256
        self.matchedRevision = matchedRevision
        self.servingSince = servingSince
        self.etag = etag
        self.lastModified = lastModified
        self.error = error
        self.durationMs = durationMs
    }
}

/// The latest of a document's observations: the last one of any kind, and the last that told what is served.
public struct DeliveryLatest: Sendable, Hashable {
    public var last: DeliveryObservation
    public var content: DeliveryObservation?

    public init(last: DeliveryObservation, content: DeliveryObservation?) {
        self.last = last
        self.content = content
    }
}

/// Observations of the delivery watch. Not registry writes: no write lock, no audit entry, no NOTIFY.
public struct DeliveryRepository: Sendable {
    public init() {}

    private static let columns: SQLQuery = """
        id, host, kind, observed_at, outcome, http_status, size, sha256, canonical_sha256, matched_revision,
        serving_since, etag, last_modified, error, duration_ms
        """

    /// Appends one observation; returns its id.
    @discardableResult
    public func record(_ o: DeliveryObservation, in tx: Transaction) throws -> Int64 {
        let rows = try tx.query(
            """
            INSERT INTO delivery_observations (host, kind, observed_at, outcome, http_status, size, sha256,
                canonical_sha256, matched_revision, serving_since, etag, last_modified, error, duration_ms)
            VALUES (\(o.host), \(o.kind.rawValue), \(Self.timestamp(o.observedAt))::timestamptz, \(o.outcome.rawValue), \(o.httpStatus), \(o.size), \(o.sha256),
                \(o.canonicalSHA256), \(o.matchedRevision),
                \(o.servingSince.map { Self.timestamp($0) })::timestamptz, \(o.etag.map { String($0.prefix(512)) }),
                \(o.lastModified.map { String($0.prefix(512)) }), \(o.error.map { String($0.prefix(500)) }),
                \(o.durationMs))
            RETURNING id
            """)
        return Int64(try rows[0].int("id"))
    }

    /// The latest observations of `hosts`' documents: two index lookups per (host, kind), however long the
    /// history (what every server reads for its metrics every 30 s).
    public func latest(hosts: [String], in tx: Transaction) throws -> [DocumentKey: DeliveryLatest] {
        guard !hosts.isEmpty else { return [:] }
        func newest(_ filter: SQLQuery) throws -> [DocumentKey: DeliveryObservation] {
            var found: [DocumentKey: DeliveryObservation] = [:]
            for row in try tx.query(
                """
                SELECT o.* FROM unnest(\(hosts)::text[]) AS h(host)
                CROSS JOIN (VALUES ('aasa'), ('assetlinks')) AS k(kind)
                CROSS JOIN LATERAL (
                    SELECT \(Self.columns) FROM delivery_observations d
                    WHERE d.host = h.host AND d.kind = k.kind \(filter) ORDER BY d.id DESC LIMIT 1) AS o
                """)
            {
                let o = try decode(row)
                found[DocumentKey(host: o.host, kind: o.kind)] = o
            }
            return found
        }
        let content = try newest("AND d.outcome IN ('served', 'unchanged', 'not_found')")
        return try newest("").mapValues {
            DeliveryLatest(last: $0, content: content[DocumentKey(host: $0.host, kind: $0.kind)])
        }
    }

    /// A document's observations, newest first.
    public func history(host: String, kind: DocumentKind, limit: Int, in tx: Transaction) throws
        -> [DeliveryObservation]
    {
        try tx.query(
            """
            SELECT \(Self.columns) FROM delivery_observations WHERE host = \(host) AND kind = \(kind.rawValue)
            ORDER BY id DESC LIMIT \(limit)
            """
        ).map(decode)
    }

    /// Deletes observations older than `date`, keeping each document's latest two kinds (last, last content)
    /// whatever their age; returns how many went.
    @discardableResult
    public func prune(olderThan date: Date, in tx: Transaction) throws -> Int {
        let rows = try tx.query(
            """
            WITH keep AS (
                SELECT max(id) AS id FROM delivery_observations GROUP BY host, kind
                UNION SELECT max(id) FROM delivery_observations
                    WHERE outcome IN ('served', 'unchanged', 'not_found') GROUP BY host, kind)
            DELETE FROM delivery_observations
            WHERE observed_at < \(Self.timestamp(date))::timestamptz AND id NOT IN (SELECT id FROM keep)
            RETURNING id
            """)
        return rows.count
    }

    /// The revisions of (host, kind) numbered above `number`, oldest first, with their bytes: what the
    /// observer matches observations against (revisions never change, so it asks for new ones only).
    public func revisions(host: String, kind: DocumentKind, after number: Int, in tx: Transaction) throws
        -> [(number: Int, bytes: Data, createTime: Date)]
    {
        try tx.query(
            """
            SELECT number, bytes, created_at FROM revisions
            WHERE host = \(host) AND kind = \(kind.rawValue) AND number > \(number) ORDER BY number
            """
        ).map { row in (try row.int("number"), try row.bytes("bytes"), try row.date("created_at")) }
    }

    /// When each revision of (host, kind) was created, by number.
    public func revisionTimes(host: String, kind: DocumentKind, in tx: Transaction) throws -> [Int: Date] {
        var times: [Int: Date] = [:]
        for row in try tx.query(
            "SELECT number, created_at FROM revisions WHERE host = \(host) AND kind = \(kind.rawValue)")
        {
            times[try row.int("number")] = try row.date("created_at")
        }
        return times
    }

    private func decode(_ row: SQLRow) throws -> DeliveryObservation {
        guard let kind = DocumentKind(rawValue: try row.string("kind")),
            let outcome = DeliveryObservation.Outcome(rawValue: try row.string("outcome"))
        else { throw StoreError(.decodingFailed, detail: "delivery_observations") }
        return DeliveryObservation(
            id: Int64(try row.int("id")), host: try row.string("host"), kind: kind,
            observedAt: try row.date("observed_at"), outcome: outcome, httpStatus: try row.optionalInt("http_status"),
            size: try row.optionalInt("size"), sha256: try row.optionalString("sha256"),
            canonicalSHA256: try row.optionalString("canonical_sha256"),
            matchedRevision: try row.optionalInt("matched_revision"),
            servingSince: try row.optionalDate("serving_since"), etag: try row.optionalString("etag"),
            lastModified: try row.optionalString("last_modified"), error: try row.optionalString("error"),
            durationMs: try row.optionalInt("duration_ms"))
    }

    /// RFC 3339 with microseconds, UTC: a `timestamptz` literal bound as text.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
