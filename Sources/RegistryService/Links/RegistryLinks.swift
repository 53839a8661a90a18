import Foundation
import Synchronization
import RouteCore
import RouteStore

/// The in-memory side of short links: every link (`LinkIndex`), the clicks and misses counted since the
/// last flush (`ClickCounter`), and the capped links' clicks used (`ClickCaps`), with what keeps them in
/// step with the database (catching up after writes, flushing counters, raising caps).
///
/// Clicks never wait on the database: the 302 path reads `index`, `counter` and `caps` only, which
/// `RegistryService` also holds directly (`links`, `clicks`, `caps`) so a click reaches them with one load.
final class RegistryLinks: Sendable {
    /// Every short link, in memory.
    let index = LinkIndex()
    /// Clicks counted since the last flush.
    let counter = ClickCounter()
    /// Clicks used of links with a cap.
    let caps = ClickCaps()
    private let store: Store
    private let log: @Sendable (String) -> Void
    /// Held by a flush from taking the counters out of memory until its commit, and by the reads that add
    /// memory's counts to the database's: in between, neither side holds the flushed clicks, so a
    /// `Links.Stats` read then would miss them.
    private let flushing = DeadlineLock()
    /// How long such a read waits for a flush in progress.
    static let statsWait: Duration = .seconds(2)
    /// The links held when this server last had the table's statistics refreshed (`analyzeIfGrown`).
    private let analyzedAt = Atomic<Int>(0)

    init(store: Store, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.log = log
    }

    /// Whether the index read the database at least once.
    var loaded: Bool { index.loaded }

    /// Reads every link written since the index last looked, within `deadline`.
    func refresh(deadline: ContinuousClock.Instant) throws(RegistryError) {
        let first = !index.loaded
        try mappingStoreFailures(log: log) { try index.catchUp(from: store, deadline: deadline) }
        // A server starting knows its capped links' counts before it answers their first click.
        if first && index.hasCapped { refreshCaps(deadline: deadline) }
    }

    /// Reads the links written since the index last looked (after this server's own write, and when the
    /// runtime hears of another's). Never fails a request: a missed change is read on the next call.
    func refreshAfterWrite() {
        do { try index.catchUp(from: store, deadline: .now + .seconds(2)) } catch {
            log("links: reading new links failed (\(error)); the next refresh reads them")
        }
        analyzeIfGrown()
    }

    /// Has the planner's statistics of `links` refreshed, off the request, each time the links held have
    /// more than doubled (and grown by 1,000) since the last time: a bulk import is planned for at once
    /// instead of after autovacuum's next look, at a logarithmic number of `ANALYZE`s in all.
    private func analyzeIfGrown() {
        let held = index.count
        let last = analyzedAt.load(ordering: .relaxed)
        guard held >= 2 * last + 1_000,
            analyzedAt.compareExchange(expected: last, desired: held, ordering: .relaxed).exchanged
        else { return }
        let store = store
        let log = log
        DispatchQueue.global(qos: .utility).async {
            do { try store.analyzeLinks(deadline: .now + .seconds(10)) } catch {
                log("links: refreshing the table's statistics failed (\(error)); autovacuum will")
            }
        }
    }

    /// Writes the clicks and misses counted since the last flush; on failure they are kept for the next one.
    func flush(deadline: ContinuousClock.Instant) {
        defer { if index.hasCapped { refreshCaps(deadline: deadline) } }
        do {
            try flushing.withLock(until: deadline) {
                let counts = counter.take()
                let misses = counter.takeMisses()
                guard !counts.isEmpty || !misses.isEmpty else { return }
                do { try store.addClicks(counts, misses: misses, deadline: deadline) } catch {
                    counter.restore(counts)
                    counter.restoreMisses(misses)
                    log(
                        "links: writing \(counts.count + misses.count) click counters failed (\(error)); "
                            + "kept for the next flush")
                }
            }
        } catch {
            log("links: a stats read held the click counters past the flush's deadline; flushed next time")
        }
    }

    /// Brings the capped links' counts up to what the database holds (`ClickCaps`); a failure keeps the
    /// counts held, which only ever lag.
    func refreshCaps(deadline: ContinuousClock.Instant) {
        do {
            caps.raise(to: try store.read(deadline: deadline) { tx in try store.clicks.cappedTotals(in: tx) })
        } catch {
            log("links: reading the capped links' clicks failed (\(error)); tried again next flush")
        }
    }

    /// The link `domain`/`code` when it answers a click now: known, live, and under its cap.
    func serving(domain: String, code: String, at now: Date = Date()) -> IndexedLink? {
        guard let stored = index.link(domain: domain, code: code), stored.isLive(at: now),
            !(stored.link.maxClicks.map { caps.isExhausted(domain: domain, code: code, maximum: $0) } ?? false)
        else { return nil }
        return stored
    }

    /// The link's click counts: those `stored` reads from the database plus those not flushed yet.
    func counts(
        domain: String, code: String, stored: () throws(RegistryError) -> [(key: ClickKey, count: Int)]
    ) throws(RegistryError) -> [ClickKey: Int] {
        try adding(stored) { counter.pending(domain: domain, code: code) }
    }

    /// The domain's misses since the day `since` (`yyyy-mm-dd`): those `stored` reads plus those not flushed
    /// yet.
    func misses(
        domain: String, since: String, stored: () throws(RegistryError) -> [(key: LinkMissKey, count: Int)]
    ) throws(RegistryError) -> [LinkMissKey: Int] {
        try adding(stored) { counter.pendingMisses(domain: domain).filter { $0.key.day >= since } }
    }

    /// `stored` plus `pending`, read with no flush in between (see `flushing`).
    private func adding<Key: Hashable>(
        _ stored: () throws(RegistryError) -> [(key: Key, count: Int)], _ pending: () -> [Key: Int]
    ) throws(RegistryError) -> [Key: Int] {
        do {
            return try flushing.withLock(until: .now + Self.statsWait) { () throws(RegistryError) -> [Key: Int] in
                var counts: [Key: Int] = [:]
                for (key, count) in try stored() { counts[key, default: 0] += count }
                for (key, count) in pending() { counts[key, default: 0] += count }
                return counts
            }
        } catch let error as RegistryError {
            throw error
        } catch {
            throw RegistryError(.internal, "\(error)")
        }
    }
}
