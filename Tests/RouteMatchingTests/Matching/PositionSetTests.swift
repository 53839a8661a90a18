import Testing

@testable import RouteMatching

/// `PositionSet`'s word-wide operations against a plain `Set<Int>` doing the same thing member by member,
/// over sizes that end inside a word, on a word boundary and past several words.
@Suite struct PositionSetTests {
    static func random(_ random: inout SeededRandom, count: Int, density: UInt64) -> (PositionSet, Set<Int>) {
        var set = PositionSet(count: count)
        var reference = Set<Int>()
        for p in 0..<count where random.next() % 100 < density {
            set.insert(p)
            reference.insert(p)
        }
        return (set, reference)
    }

    static func members(_ set: PositionSet) -> [Int] {
        var members: [Int] = []
        set.forEach { members.append($0) }
        return members
    }

    @Test(arguments: [1, 63, 64, 65, 130, 8_193])
    func operationsEqualAPlainSet(count: Int) {
        var random = SeededRandom(seed: 0x5E7 &+ UInt64(count))
        for round in 0..<40 {
            let density = UInt64([0, 3, 30, 90, 100][round % 5])
            let (a, referenceA) = Self.random(&random, count: count, density: density)
            let (b, referenceB) = Self.random(&random, count: count, density: 50)
            #expect(Self.members(a) == referenceA.sorted())
            #expect(a.first == referenceA.min())
            #expect(a.isEmpty == referenceA.isEmpty)
            #expect((0...count).allSatisfy { a.contains($0) == referenceA.contains($0) })

            var union = a
            union.formUnion(b)
            #expect(Self.members(union) == referenceA.union(referenceB).sorted())

            let shift = Int(random.next() % UInt64(count + 70))
            var shifted = b
            shifted.formUnion(a, shiftedUpBy: shift)
            let expectedShifted = referenceB.union(referenceA.map { $0 + shift }.filter { $0 < count })
            #expect(Self.members(shifted) == expectedShifted.sorted(), "shift \(shift)")

            var narrowed = a
            narrowed.formIntersection(b, shiftedDownBy: shift)
            #expect(Self.members(narrowed) == referenceA.filter { referenceB.contains($0 + shift) }.sorted())

            let below = Int(random.next() % UInt64(count + 2))
            var trimmed = a
            trimmed.removeAll(below: below)
            #expect(Self.members(trimmed) == referenceA.filter { $0 >= below }.sorted())
        }
    }
}
