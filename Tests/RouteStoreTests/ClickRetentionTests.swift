import Foundation
import RouteCore
import RouteStore
import Testing

/// Link counters in the store: misses per domain, day and outcome (no code column at all), and the
/// retention deleting old click and miss rows in batches, one server at a time.
@Suite("Click counters and their retention")
struct ClickRetentionTests {
    let fixture: StoreTestDatabase
    let store: Store

    init() throws {
        fixture = try StoreTestDatabase(suite: "click_retention")
        store = Store(database: fixture.database)
    }

    private func rows(_ table: String) throws -> Int {
        try fixture.tx { tx in
            try tx.query("SELECT count(*)::int AS n FROM \(unsafeRaw: table)").first?.int("n") ?? -1
        }
    }

    @Test func missesAddUpPerDomainDayAndOutcome() throws {
        let key = LinkMissKey(domain: "go.x", day: "2026-12-02", outcome: "unknown")
        try store.addClicks([:], misses: [key: 3])
        try store.addClicks(
            [:], misses: [key: 2, LinkMissKey(domain: "go.x", day: "2026-12-02", outcome: "deleted"): 1])
        let counts = try fixture.tx { try store.misses.counts(domain: "go.x", in: $0) }
        #expect(counts.map(\.key.outcome) == ["deleted", "unknown"])
        #expect(counts.map(\.count) == [1, 5])
        // The table has no column a visitor's text could go into.
        let columns = try fixture.tx { tx in
            try tx.query(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'link_misses' ORDER BY 1"
            ).map { try $0.string("column_name") }
        }
        #expect(columns == ["count", "day", "domain", "outcome"])
    }

    @Test func oldRowsGoInBatchesAndRecentOnesStay() throws {
        var clicks: [ClickKey: Int] = [:]
        for day in 1...25 {
            let text = String(format: "2025-01-%02d", day)
            clicks[ClickKey(domain: "go.x", code: "c", day: text, platform: "ios", outcome: "landing")] = day
        }
        let misses = [
            LinkMissKey(domain: "go.x", day: "2025-01-01", outcome: "unknown"): 7,
            LinkMissKey(domain: "go.x", day: "2025-01-25", outcome: "unknown"): 7,
        ]
        try store.addClicks(clicks, misses: misses)
        // Days before the 21st go, 10 rows of each table at most per statement.
        let first = try store.pruneClicks(before: "2025-01-21", batch: 10, deadline: .now + .seconds(5))
        #expect(first == 11)
        #expect(try rows("link_clicks") == 15 && rows("link_misses") == 1)
        #expect(try store.pruneClicks(before: "2025-01-21", batch: 10, deadline: .now + .seconds(5)) == 10)
        #expect(try store.pruneClicks(before: "2025-01-21", batch: 10, deadline: .now + .seconds(5)) == 0)
        let kept = try fixture.tx { try store.clicks.counts(domain: "go.x", code: "c", in: $0) }
        #expect(kept.map(\.key.day) == (21...25).reversed().map { "2025-01-\($0)" })
    }

    @Test func aServerPruningMeanwhileMakesTheOthersSkip() throws {
        try store.addClicks([
            ClickKey(domain: "go.x", code: "c", day: "2020-01-01", platform: "ios", outcome: "landing"): 1
        ])
        // Another server holds the pruning lock in an open transaction.
        let held = try fixture.database.withConnection { connection in
            try connection.query("BEGIN")
            defer { _ = try? connection.query("ROLLBACK") }
            _ = try connection.query("SELECT pg_advisory_xact_lock(\(Store.clickRetentionLockKey))")
            return try store.pruneClicks(before: "2025-01-01", batch: 10, deadline: .now + .seconds(5))
        }
        #expect(held == nil)
        #expect(try rows("link_clicks") == 1)
        #expect(try store.pruneClicks(before: "2025-01-01", batch: 10, deadline: .now + .seconds(5)) == 1)
    }

    @Test func aDomainKeepsItsLongLinkPreviewSetting() throws {
        try fixture.tx { tx in
            _ = try AppRepository().create(Fixtures.app("badoo"), in: tx)
        }
        let domain = Domain(host: "go.badoo.com", apps: ["badoo"], links: true, longLinkPreviews: true)
        let created = try fixture.tx { try store.domains.create(domain, in: $0) }
        #expect(created.value.longLinkPreviews == true)
        var off = created.value
        off.longLinkPreviews = nil
        let updated = try fixture.tx { try store.domains.update(off, expectedEtag: nil, in: $0) }
        #expect(updated.value.longLinkPreviews == nil)
        #expect(try fixture.tx { try store.domains.get("go.badoo.com", in: $0) }?.value == off)
    }
}
