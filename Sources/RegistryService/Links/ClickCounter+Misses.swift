import Foundation
import RouteStore
import ThreadShards

extension ClickCounter {
    /// Why a visit found no link (`LinkMissKey.outcomes`).
    public enum Miss: UInt8, Sendable, CaseIterable {
        /// The code was never used on the domain.
        case unknown
        /// The link expired.
        case expired
        /// The link was deleted.
        case deleted
        /// A long link (`/?link=…`) that is not served (no `link`, or one outside the app's domains).
        case refused
        /// The link is switched off (`disabled`).
        case disabled

        /// Its name in the store and in the metric's `outcome` label.
        public var name: String { LinkMissKey.outcomes[Int(rawValue)] }
    }

    /// A miss's counter: the domain (a link domain of the registry: only those are answered), the day and why.
    /// No code: what a visitor typed is never a key, so the map stays as small as the domains × days.
    struct MissKey: Hashable {
        var domain: String
        var day: Int32
        var miss: Miss
    }

    /// Most miss counters a shard holds before a flush takes them; past it a miss is counted in the totals
    /// only. Link domains are few, so this is never reached unless the host classification is bypassed.
    static let maxMissKeys = 1_024

    /// Counts one visit to `domain` that found no link, at `date` (its UTC day).
    public func countMiss(domain: String, _ miss: Miss, at date: Date = Date()) {
        missTotals[Int(miss.rawValue)].add(1)
        let key = MissKey(domain: domain, day: Int32(date.timeIntervalSince1970 / 86_400), miss: miss)
        misses.withLock { held in
            if held[key] != nil || held.count < Self.maxMissKeys { held[key, default: 0] += 1 }
        }
    }

    /// Misses counted since the server started, by outcome name (what `routereg_link_misses_total` shows).
    public var missTotalsByOutcome: [(outcome: String, count: Int)] {
        Miss.allCases.map { ($0.name, missTotals[Int($0.rawValue)].sum) }
    }

    /// Takes every miss not yet flushed.
    public func takeMisses() -> [LinkMissKey: Int] {
        var taken: [[MissKey: Int]] = []
        misses.forEach { shard in
            taken.append(shard)
            shard = [:]
        }
        var all: [LinkMissKey: Int] = [:]
        for shard in taken {
            for (key, count) in shard { all[Self.stored(key), default: 0] += count }
        }
        return all
    }

    /// Puts misses back (a flush that failed); the totals are not counted again.
    public func restoreMisses(_ counts: [LinkMissKey: Int]) {
        let keys = counts.compactMap { key, count in Self.compact(key).map { ($0, count) } }
        guard !keys.isEmpty else { return }
        misses.withLock { held in
            for (key, count) in keys { held[key, default: 0] += count }
        }
    }

    /// The misses of `domain` not flushed yet.
    public func pendingMisses(domain: String) -> [LinkMissKey: Int] {
        var found: [LinkMissKey: Int] = [:]
        misses.forEach { shard in
            for (key, count) in shard where key.domain == domain { found[Self.stored(key), default: 0] += count }
        }
        return found
    }

    static func stored(_ key: MissKey) -> LinkMissKey {
        LinkMissKey(domain: key.domain, day: dayText(Int(key.day)), outcome: key.miss.name)
    }

    static func compact(_ key: LinkMissKey) -> MissKey? {
        guard let index = LinkMissKey.outcomes.firstIndex(of: key.outcome), let miss = Miss(rawValue: UInt8(index)),
            let date = try? Date(key.day + "T00:00:00Z", strategy: .iso8601)
        else { return nil }
        return MissKey(domain: key.domain, day: Int32(date.timeIntervalSince1970 / 86_400), miss: miss)
    }
}
