import Foundation
import RouteCore
import RouteStore
import ThreadShards

/// Clicks counted in memory, per link × day × platform × outcome × source, and written to PostgreSQL in batches
/// (`RegistryService.flushClicks`, every few seconds and at a graceful stop): a click costs a lock of its
/// thread's shard and a dictionary increment, never a database write.
///
/// What a crash can lose is bounded: the counts since the last flush (at most one flush interval of
/// clicks; RELIABILITY.md). A flush that fails puts its counts back, so a database outage loses none.
///
/// Only known links are counted per link: a visit that finds no link is a miss (`ClickCounter+Misses`),
/// counted per domain, day and outcome, so what a stranger types in a URL is neither kept nor stored.
public final class ClickCounter: Sendable {
    /// Who visited: `ios`, `android`, `desktop` or `crawler`.
    public static let platforms = ["ios", "android", "desktop", "crawler"]
    /// What they were answered: `crawler`, `landing` or `redirect` (`not_found` is what servers before
    /// issue 41 counted misses as; misses are `ClickCounter+Misses` now).
    public static let outcomes = ["crawler", "landing", "redirect", "not_found"]
    /// Where the click came from: `link` (the short URL), `qr` (its QR code, which carries `?qr=1`).
    public static let sources = [ClickKey.linkSource, ShortLinkURL.scanQueryItem]

    /// A click's counter, compact: the day as a number and the platform and outcome as indexes, so counting
    /// hashes two strings, not five.
    struct Key: Hashable {
        var domain: String
        var code: String
        var day: Int32
        var platform: UInt8
        var outcome: UInt8
        var source: UInt8
        /// The domain and code hashed once (`Tally`), so hashing a key hashes integers only; equal keys have
        /// equal hints.
        var hint: Int

        init(
            domain: String, code: String, day: Int32, platform: UInt8, outcome: UInt8, source: UInt8 = 0,
            hint: Int? = nil
        ) {
            self.domain = domain
            self.code = code
            self.day = day
            self.platform = platform
            self.outcome = outcome
            self.source = source
            self.hint = hint ?? Self.hint(domain: domain, code: code)
        }

        static func hint(domain: String, code: String) -> Int {
            var hasher = Hasher()
            hasher.combine(domain)
            hasher.combine(code)
            return hasher.finalize()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hint)
            hasher.combine(day)
            hasher.combine(platform)
            hasher.combine(outcome)
            hasher.combine(source)
        }
    }

    /// One link × platform × outcome, made once and counted many times (a click answered from a cache): counting
    /// it hashes two integers, not the domain and code.
    public struct Tally: Sendable {
        let domain: String
        let code: String
        let platform: UInt8
        let outcome: UInt8
        let source: UInt8
        let hint: Int
    }

    /// The tally of `platform`, `outcome` and `source` (entries of `platforms`, `outcomes` and `sources`) for a
    /// link; nil for others.
    public func tally(
        domain: String, code: String, platform: String, outcome: String, source: String = ClickKey.linkSource
    ) -> Tally? {
        guard let platform = Self.platforms.firstIndex(of: platform),
            let outcome = Self.outcomes.firstIndex(of: outcome), let source = Self.sources.firstIndex(of: source)
        else { return nil }
        return Tally(
            domain: domain, code: code, platform: UInt8(platform), outcome: UInt8(outcome), source: UInt8(source),
            hint: Key.hint(domain: domain, code: code))
    }

    /// Counts one click of `tally` at `date` (its UTC day).
    public func count(_ tally: Tally, at date: Date) {
        let key = Key(
            domain: tally.domain, code: tally.code, day: Int32(date.timeIntervalSince1970 / 86_400),
            platform: tally.platform, outcome: tally.outcome, source: tally.source, hint: tally.hint)
        add(key)
    }

    /// Each thread counts in its own shard, so the lock rarely moves between cores.
    private let counts = ThreadSharded { [Key: Int]() }
    /// Misses not flushed yet, per domain × day × outcome, at most `maxMissKeys` keys per shard.
    let misses = ThreadSharded { [MissKey: Int]() }
    /// Misses since the server started, per outcome (`LinkMissKey.outcomes`): `routereg_link_misses_total`.
    let missTotals = LinkMissKey.outcomes.map { _ in StripedCounter() }

    public init() {}

    /// Counts one click at `date` (its UTC day); `platform`, `outcome` and `source` name entries of
    /// `platforms`, `outcomes` and `sources` (anything else is not counted).
    public func count(
        domain: String, code: String, platform: String, outcome: String, source: String = ClickKey.linkSource,
        at date: Date = Date()
    ) {
        guard let tally = tally(domain: domain, code: code, platform: platform, outcome: outcome, source: source)
        else { return }
        count(tally, at: date)
    }

    private func add(_ key: Key) { counts.withLock { $0[key, default: 0] += 1 } }

    /// Takes every count not yet flushed.
    public func take() -> [ClickKey: Int] {
        var taken: [[Key: Int]] = []
        counts.forEach { shard in
            taken.append(shard)
            shard = [:]
        }
        var all: [ClickKey: Int] = [:]
        for shard in taken {
            for (key, count) in shard { all[Self.stored(key), default: 0] += count }
        }
        return all
    }

    /// Puts counts back (a flush that failed).
    public func restore(_ counts: [ClickKey: Int]) {
        guard !counts.isEmpty else { return }
        let keys = counts.compactMap { key, count in Self.compact(key).map { ($0, count) } }
        self.counts.withLock { held in
            for (key, count) in keys { held[key, default: 0] += count }
        }
    }

    /// The counts of one link not yet flushed.
    public func pending(domain: String, code: String) -> [ClickKey: Int] {
        var found: [ClickKey: Int] = [:]
        counts.forEach { shard in
            for (key, count) in shard where key.domain == domain && key.code == code {
                found[Self.stored(key), default: 0] += count
            }
        }
        return found
    }

    /// The counter as the store keeps it.
    static func stored(_ key: Key) -> ClickKey {
        ClickKey(
            domain: key.domain, code: key.code, day: dayText(Int(key.day)), platform: platforms[Int(key.platform)],
            outcome: outcomes[Int(key.outcome)], source: sources[Int(key.source)])
    }

    /// The counter in memory, back from the store's form.
    static func compact(_ key: ClickKey) -> Key? {
        guard let platform = platforms.firstIndex(of: key.platform), let outcome = outcomes.firstIndex(of: key.outcome),
            let source = sources.firstIndex(of: key.source),
            let date = try? Date(key.day + "T00:00:00Z", strategy: .iso8601)
        else { return nil }
        return Key(
            domain: key.domain, code: key.code, day: Int32(date.timeIntervalSince1970 / 86_400),
            platform: UInt8(platform), outcome: UInt8(outcome), source: UInt8(source))
    }

    /// `YYYY-MM-DD` of a day number since 1970-01-01 (the proleptic Gregorian calendar, Howard Hinnant's
    /// algorithm: no Calendar needed).
    static func dayText(_ days: Int) -> String {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return String(format: "%04d-%02d-%02d", yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
