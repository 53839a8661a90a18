import Foundation
import RouteStore
import Testing

@testable import RegistryService

/// The click counters in memory: counted per link, UTC day, platform and outcome, taken whole, put back
/// after a failed write, and the day written as the store keeps it.
@Suite struct ClickCounterTests {
    @Test(arguments: [
        (0, "1970-01-01"), (20_789, "2026-12-02"), (19_782, "2024-02-29"), (11_017, "2000-03-01"),
        (10_956, "1999-12-31"),
    ])
    func daysAreWrittenAsTheCalendarHasThem(day: Int, text: String) {
        #expect(ClickCounter.dayText(day) == text)
    }

    @Test func countsAreTakenWholeAndPutBackAfterAFailedWrite() {
        let counter = ClickCounter()
        let noon = Date(timeIntervalSince1970: 20_789 * 86_400 + 43_200)
        for _ in 0..<3 { counter.count(domain: "go.x", code: "a", platform: "ios", outcome: "landing", at: noon) }
        counter.count(domain: "go.x", code: "a", platform: "desktop", outcome: "redirect", at: noon)
        counter.count(domain: "go.x", code: "b", platform: "crawler", outcome: "crawler", at: noon)
        counter.count(domain: "go.x", code: "b", platform: "phone", outcome: "landing", at: noon)  // not a platform
        #expect(counter.pending(domain: "go.x", code: "a").values.reduce(0, +) == 4)
        let taken = counter.take()
        #expect(taken[ClickKey(domain: "go.x", code: "a", day: "2026-12-02", platform: "ios", outcome: "landing")] == 3)
        #expect(taken.values.reduce(0, +) == 5)
        #expect(counter.take().isEmpty)
        counter.restore(taken)
        #expect(counter.take() == taken)
    }

    @Test("a tally counts into the same counter as a click counted by name, day by day")
    func aTallyCountsLikeAClickByName() throws {
        let counter = ClickCounter()
        let noon = Date(timeIntervalSince1970: 20_789 * 86_400 + 43_200)
        let tally = try #require(counter.tally(domain: "go.x", code: "a", platform: "ios", outcome: "landing"))
        #expect(counter.tally(domain: "go.x", code: "a", platform: "phone", outcome: "landing") == nil)
        counter.count(tally, at: noon)
        counter.count(tally, at: noon.addingTimeInterval(86_400))
        counter.count(domain: "go.x", code: "a", platform: "ios", outcome: "landing", at: noon)
        let taken = counter.take()
        #expect(taken[ClickKey(domain: "go.x", code: "a", day: "2026-12-02", platform: "ios", outcome: "landing")] == 2)
        #expect(taken[ClickKey(domain: "go.x", code: "a", day: "2026-12-03", platform: "ios", outcome: "landing")] == 1)
        #expect(taken.count == 2)
    }

    @Test("a miss is counted per domain, day and why, never by the code visited, and put back after a failed write")
    func missesAreCountedPerDomainAndDay() {
        let counter = ClickCounter()
        let noon = Date(timeIntervalSince1970: 20_789 * 86_400 + 43_200)
        for _ in 0..<20 { counter.countMiss(domain: "go.x", .unknown, at: noon) }
        counter.countMiss(domain: "go.x", .expired, at: noon)
        counter.countMiss(domain: "go.x", .unknown, at: noon.addingTimeInterval(86_400))
        counter.countMiss(domain: "go.y", .refused, at: noon)
        #expect(counter.pendingMisses(domain: "go.x").values.reduce(0, +) == 22)
        let taken = counter.takeMisses()
        #expect(taken[LinkMissKey(domain: "go.x", day: "2026-12-02", outcome: "unknown")] == 20)
        #expect(taken[LinkMissKey(domain: "go.x", day: "2026-12-03", outcome: "unknown")] == 1)
        #expect(taken[LinkMissKey(domain: "go.x", day: "2026-12-02", outcome: "expired")] == 1)
        #expect(taken[LinkMissKey(domain: "go.y", day: "2026-12-02", outcome: "refused")] == 1)
        #expect(taken.count == 4)
        // Misses are not clicks: no per-link counter was made.
        #expect(counter.take().isEmpty)
        #expect(counter.takeMisses().isEmpty)
        counter.restoreMisses(taken)
        #expect(counter.takeMisses() == taken)
        // The totals since start (the metric) count every miss once, restored or not.
        let totals = Dictionary(uniqueKeysWithValues: counter.missTotalsByOutcome.map { ($0.outcome, $0.count) })
        #expect(totals == ["unknown": 21, "expired": 1, "deleted": 0, "refused": 1, "disabled": 0])
    }

    @Test("the miss counters held in memory are bounded whatever the visitors send")
    func missCountersAreBounded() {
        let counter = ClickCounter()
        let noon = Date(timeIntervalSince1970: 20_789 * 86_400 + 43_200)
        // Domains are the registry's link domains, but even a flood of made-up ones keeps the map small.
        for i in 0..<(ClickCounter.maxMissKeys + 500) { counter.countMiss(domain: "d\(i).example", .unknown, at: noon) }
        // One thread counted them all (no suspension point in between), so one shard holds them: full, no more.
        #expect(counter.takeMisses().count == ClickCounter.maxMissKeys)
        #expect(counter.missTotalsByOutcome.first { $0.outcome == "unknown" }?.count == ClickCounter.maxMissKeys + 500)
    }
}
