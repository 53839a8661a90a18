import Foundation
import RouteCore

/// One counter of clicks: a link on a day (UTC), by the visitor's platform and what it was answered.
public struct ClickKey: Sendable, Hashable {
    public var domain: String
    public var code: String
    /// `YYYY-MM-DD`, UTC.
    public var day: String
    /// `ios`, `android`, `desktop` or `crawler`.
    public var platform: String
    /// `crawler`, `landing`, `redirect` or `not_found`.
    public var outcome: String

    public init(domain: String, code: String, day: String, platform: String, outcome: String) {
        self.domain = domain
        self.code = code
        self.day = day
        self.platform = platform
        self.outcome = outcome
    }
}

/// Click counters per link, day, platform and outcome. They hold counts only: no address, no user agent.
public struct ClickRepository: Sendable {
    public init() {}

    /// Adds `counts` to the stored counters, in one statement.
    public func add(_ counts: [ClickKey: Int], in tx: Transaction) throws {
        guard !counts.isEmpty else { return }
        let entries = counts.sorted {
            ($0.key.domain, $0.key.code, $0.key.day) < ($1.key.domain, $1.key.code, $1.key.day)
        }
        try tx.query(
            """
            INSERT INTO link_clicks (domain, code, day, platform, outcome, count)
            SELECT * FROM unnest(\(entries.map(\.key.domain))::text[], \(entries.map(\.key.code))::text[],
                \(entries.map(\.key.day))::date[], \(entries.map(\.key.platform))::text[],
                \(entries.map(\.key.outcome))::text[], \(entries.map { Int64($0.value) })::bigint[])
            ON CONFLICT (domain, code, day, platform, outcome) DO UPDATE SET count = link_clicks.count + EXCLUDED.count
            """)
    }

    /// A link's counters, by day (newest first), platform and outcome.
    public func counts(domain: String, code: String, in tx: Transaction) throws -> [(key: ClickKey, count: Int)] {
        try tx.query(
            """
            SELECT domain, code, day::text AS day, platform, outcome, count FROM link_clicks
            WHERE domain = \(domain) AND code = \(code) ORDER BY day DESC, platform, outcome
            """
        ).map { row in
            (
                ClickKey(
                    domain: try row.string("domain"), code: try row.string("code"), day: try row.string("day"),
                    platform: try row.string("platform"), outcome: try row.string("outcome")),
                try row.int("count")
            )
        }
    }
}
