import Foundation
import RouteCore

/// One counter of clicks: a link on a day (UTC), by the visitor's platform, what it was answered and where the
/// click came from.
public struct ClickKey: Sendable, Hashable {
    public var domain: String
    public var code: String
    /// `YYYY-MM-DD`, UTC.
    public var day: String
    /// `ios`, `android`, `desktop` or `crawler`.
    public var platform: String
    /// `crawler`, `landing`, `redirect` or `not_found`.
    public var outcome: String
    /// `link` (a tap on the short URL) or `qr` (a scan of its QR code).
    public var source: String

    /// The source of a tap on the short URL, the one `link_clicks` holds.
    public static let linkSource = "link"

    public init(
        domain: String, code: String, day: String, platform: String, outcome: String, source: String = linkSource
    ) {
        self.domain = domain
        self.code = code
        self.day = day
        self.platform = platform
        self.outcome = outcome
        self.source = source
    }
}

/// Click counters per link, day, platform and outcome. They hold counts only: no address, no user agent.
public struct ClickRepository: Sendable {
    public init() {}

    /// Adds `counts` to the stored counters: taps to `link_clicks`, other sources to `link_click_sources`
    /// (migration 0012 says why two tables), one statement each.
    public func add(_ counts: [ClickKey: Int], in tx: Transaction) throws {
        let entries = counts.sorted {
            ($0.key.domain, $0.key.code, $0.key.day) < ($1.key.domain, $1.key.code, $1.key.day)
        }
        let taps = entries.filter { $0.key.source == ClickKey.linkSource }
        let others = entries.filter { $0.key.source != ClickKey.linkSource }
        if !taps.isEmpty {
            try tx.query(
                """
                INSERT INTO link_clicks (domain, code, day, platform, outcome, count)
                SELECT * FROM unnest(\(taps.map(\.key.domain))::text[], \(taps.map(\.key.code))::text[],
                    \(taps.map(\.key.day))::date[], \(taps.map(\.key.platform))::text[],
                    \(taps.map(\.key.outcome))::text[], \(taps.map { Int64($0.value) })::bigint[])
                ON CONFLICT (domain, code, day, platform, outcome) DO UPDATE SET count = link_clicks.count + EXCLUDED.count
                """)
        }
        if !others.isEmpty {
            try tx.query(
                """
                INSERT INTO link_click_sources (domain, code, day, platform, outcome, source, count)
                SELECT * FROM unnest(\(others.map(\.key.domain))::text[], \(others.map(\.key.code))::text[],
                    \(others.map(\.key.day))::date[], \(others.map(\.key.platform))::text[],
                    \(others.map(\.key.outcome))::text[], \(others.map(\.key.source))::text[],
                    \(others.map { Int64($0.value) })::bigint[])
                ON CONFLICT (domain, code, day, platform, outcome, source)
                DO UPDATE SET count = link_click_sources.count + EXCLUDED.count
                """)
        }
    }

    /// The clicks by people (every platform but `crawler`) of each live link with a cap, keyed `domain/code`.
    public func cappedTotals(in tx: Transaction) throws -> [String: Int] {
        var totals: [String: Int] = [:]
        for row in try tx.query(
            """
            SELECT l.domain || '/' || l.code AS key, coalesce(sum(c.count), 0)::bigint AS used
            FROM links l
            LEFT JOIN (
                SELECT domain, code, count FROM link_clicks WHERE platform <> 'crawler'
                UNION ALL
                SELECT domain, code, count FROM link_click_sources WHERE platform <> 'crawler'
            ) c ON c.domain = l.domain AND c.code = l.code
            WHERE l.max_clicks IS NOT NULL AND l.deleted_at IS NULL
            GROUP BY l.domain, l.code
            """)
        {
            totals[try row.string("key")] = try row.int("used")
        }
        return totals
    }

    /// A link's counters of every source, by day (newest first), platform, outcome and source.
    public func counts(domain: String, code: String, in tx: Transaction) throws -> [(key: ClickKey, count: Int)] {
        try tx.query(
            """
            SELECT day::text AS day, platform, outcome, 'link' AS source, count FROM link_clicks
            WHERE domain = \(domain) AND code = \(code)
            UNION ALL
            SELECT day::text AS day, platform, outcome, source, count FROM link_click_sources
            WHERE domain = \(domain) AND code = \(code)
            ORDER BY day DESC, platform, outcome, source
            """
        ).map { row in
            (
                ClickKey(
                    domain: domain, code: code, day: try row.string("day"), platform: try row.string("platform"),
                    outcome: try row.string("outcome"), source: try row.string("source")),
                try row.int("count")
            )
        }
    }
}
