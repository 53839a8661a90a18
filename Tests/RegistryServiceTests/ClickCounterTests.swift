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
}
