import Testing
import ThreadShards

/// What a per-thread memo keeps and when it lets go.
@Suite struct VersionedMemoTests {
    @Test func aValueIsGoodForTheVersionItWasMadeFor() {
        let memo = VersionedMemo<String, Int, UInt64>(initial: 0)
        #expect(memo.value("a", version: 1) == nil)
        memo.keep(10, "a", version: 1)
        #expect(memo.value("a", version: 1) == 10)
        #expect(memo.value("a", version: 2) == nil, "a newer version does not see it")
        #expect(memo.value("b", version: 1) == nil)
    }

    @Test func aNewerVersionStartsOverAndAnOlderOneIsNotKept() {
        let memo = VersionedMemo<String, Int, UInt64>(initial: 0)
        memo.keep(10, "a", version: 1)
        memo.keep(20, "b", version: 2)
        #expect(memo.value("a", version: 2) == nil && memo.value("b", version: 2) == 20)
        // A reader that read version 1 before the swap finishes late: the newer table stays.
        memo.keep(11, "a", version: 1)
        #expect(memo.value("a", version: 1) == nil && memo.value("b", version: 2) == 20)
    }

    @Test func aFullTableStartsOver() {
        let memo = VersionedMemo<Int, Int, UInt64>(initial: 0, limit: 3)
        for key in 0..<3 { memo.keep(key, key, version: 5) }
        #expect((0..<3).allSatisfy { memo.value($0, version: 5) == $0 })
        memo.keep(3, 3, version: 5)
        #expect(memo.value(3, version: 5) == 3 && memo.value(0, version: 5) == nil)
    }

    /// Versions need only be ordered: a pair of counters, compared in order, works as one.
    @Test func anyComparableVersion() {
        struct Pair: Comparable, Sendable {
            var snapshot: UInt64, links: UInt64
            static func < (a: Pair, b: Pair) -> Bool { (a.snapshot, a.links) < (b.snapshot, b.links) }
        }
        let memo = VersionedMemo<String, String, Pair>(initial: Pair(snapshot: 0, links: 0))
        memo.keep("page", "summer", version: Pair(snapshot: 3, links: 7))
        #expect(memo.value("summer", version: Pair(snapshot: 3, links: 7)) == "page")
        #expect(memo.value("summer", version: Pair(snapshot: 3, links: 8)) == nil)
    }
}
