import Foundation

extension Store {
    /// The advisory lock key of click pruning ("rr-click" in ASCII): one server of a fleet deletes at a time.
    public static let clickRetentionLockKey: Int64 = 0x7272_2d63_6c69_636b

    /// Deletes up to `batch` rows of each of `link_clicks`, `link_click_sources` and `link_misses` of days before `day`
    /// (`YYYY-MM-DD`, UTC), oldest first, in one short transaction within `deadline`; returns how many went,
    /// or nil when another server is pruning at this moment (it holds the lock; nothing is waited for).
    ///
    /// Small batches keep each statement short and its locks few, so clicks being flushed meanwhile never wait
    /// long; the caller repeats until fewer than `batch` went.
    public func pruneClicks(before day: String, batch: Int, deadline: ContinuousClock.Instant) throws -> Int? {
        try database.withTransaction(deadline: deadline) { tx -> Int? in
            let held = try tx.query("SELECT pg_try_advisory_xact_lock(\(Store.clickRetentionLockKey)) AS held")
            guard try held.first?.bool("held") == true else { return nil }
            let clicks = try tx.query(
                """
                DELETE FROM link_clicks WHERE ctid IN (
                    SELECT ctid FROM link_clicks WHERE day < \(day)::date ORDER BY day LIMIT \(batch))
                """)
            let sources = try tx.query(
                """
                DELETE FROM link_click_sources WHERE ctid IN (
                    SELECT ctid FROM link_click_sources WHERE day < \(day)::date ORDER BY day LIMIT \(batch))
                """)
            let misses = try tx.query(
                """
                DELETE FROM link_misses WHERE ctid IN (
                    SELECT ctid FROM link_misses WHERE day < \(day)::date ORDER BY day LIMIT \(batch))
                """)
            return clicks.affectedRows + sources.affectedRows + misses.affectedRows
        }
    }
}
