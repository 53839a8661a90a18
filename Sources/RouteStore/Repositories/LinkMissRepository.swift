import RouteCore

/// One counter of visits that found no link: a link domain on a day (UTC), by why. It names no code, so
/// what a visitor typed is never stored, and there are at most `outcomes.count` rows per domain and day.
public struct LinkMissKey: Sendable, Hashable {
    /// Why a visit found no link: the code was never used, the link expired, it was deleted, a long link
    /// (`/?link=…`) was not served, or the link is switched off.
    public static let outcomes = ["unknown", "expired", "deleted", "refused", "disabled"]

    public var domain: String
    /// `YYYY-MM-DD`, UTC.
    public var day: String
    /// One of `outcomes`.
    public var outcome: String

    public init(domain: String, day: String, outcome: String) {
        self.domain = domain
        self.day = day
        self.outcome = outcome
    }
}

/// Misses per link domain, day and outcome (`link_misses`, migration 0009).
public struct LinkMissRepository: Sendable {
    public init() {}

    /// Adds `counts` to the stored counters, in one statement.
    public func add(_ counts: [LinkMissKey: Int], in tx: Transaction) throws {
        guard !counts.isEmpty else { return }
        let entries = counts.sorted {
            ($0.key.domain, $0.key.day, $0.key.outcome) < ($1.key.domain, $1.key.day, $1.key.outcome)
        }
        try tx.query(
            """
            INSERT INTO link_misses (domain, day, outcome, count)
            SELECT * FROM unnest(\(entries.map(\.key.domain))::text[], \(entries.map(\.key.day))::date[],
                \(entries.map(\.key.outcome))::text[], \(entries.map { Int64($0.value) })::bigint[])
            ON CONFLICT (domain, day, outcome) DO UPDATE SET count = link_misses.count + EXCLUDED.count
            """)
    }

    /// A domain's counters from `since` (`YYYY-MM-DD`) on, or all, by day (newest first) and outcome.
    public func counts(domain: String, since: String? = nil, in tx: Transaction) throws -> [(
        key: LinkMissKey, count: Int
    )] {
        try tx.query(
            """
            SELECT domain, day::text AS day, outcome, count FROM link_misses
            WHERE domain = \(domain) AND (\(since)::date IS NULL OR day >= \(since)::date) ORDER BY day DESC, outcome
            """
        ).map { row in
            (
                LinkMissKey(
                    domain: try row.string("domain"), day: try row.string("day"), outcome: try row.string("outcome")),
                try row.int("count")
            )
        }
    }
}
