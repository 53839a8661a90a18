import Foundation
import RouteStore

extension RegistryService {
    /// What one round of `pruneClicks` did.
    public struct ClickPruning: Sendable, Equatable {
        /// Counter rows deleted (clicks and misses).
        public var deleted: Int
        /// Nothing older than the retention is left (or another server is deleting it): wait for the next round.
        public var done: Bool
    }

    /// Deletes click and miss counters of days before the last `retentionDays` (UTC days, today included), in
    /// batches of `batch` rows, each in a transaction of its own within `statementTimeout`, for at most
    /// `budget`; another server pruning meanwhile ends the round (`Store.pruneClicks`). Never throws: a
    /// failure is logged and the next round tries again.
    public func pruneClicks(
        retentionDays: Int, now: Date = Date(), batch: Int = 1_000, budget: Duration = .seconds(1),
        statementTimeout: Duration = .seconds(2)
    ) -> ClickPruning {
        guard retentionDays > 0 else { return ClickPruning(deleted: 0, done: true) }
        let today = Int(now.timeIntervalSince1970 / 86_400)
        let cutoff = ClickCounter.dayText(today - retentionDays + 1)
        let end = ContinuousClock.now + budget
        var deleted = 0
        while ContinuousClock.now < end {
            do {
                guard let went = try store.pruneClicks(before: cutoff, batch: batch, deadline: .now + statementTimeout),
                    went > 0
                else { return ClickPruning(deleted: deleted, done: true) }
                deleted += went
            } catch {
                options.log("links: deleting click counters before \(cutoff) failed (\(error)); tried again later")
                return ClickPruning(deleted: deleted, done: true)
            }
        }
        return ClickPruning(deleted: deleted, done: false)
    }
}
