import Testing

@testable import RouteMatching

/// `ValueTrie.advance` against trying every value at every start position one by one.
@Suite struct ValueTrieTests {
    /// Where `values` started at `starts` end in `s`, value by value and position by position.
    static func reference(_ values: [[UInt8]], _ s: [UInt8], _ starts: Set<Int>) -> [Int] {
        var ends = Set<Int>()
        for p in starts {
            for value in values where p + value.count <= s.count && Array(s[p..<(p + value.count)]) == value {
                ends.insert(p + value.count)
            }
        }
        return ends.sorted()
    }

    static func advanced(_ values: [[UInt8]], _ s: [UInt8], _ starts: Set<Int>) -> [Int] {
        let trie = ValueTrie(values)
        var from = PositionSet(count: s.count + 1)
        for p in starts { from.insert(p) }
        var occurrences: [UInt8: PositionSet] = [:]
        for (i, byte) in s.enumerated() {
            occurrences[byte, default: PositionSet(count: s.count + 1)].insert(i)
        }
        var next = PositionSet(count: s.count + 1)
        trie.advance(from: from, into: &next) { occurrences[$0] ?? PositionSet(count: s.count + 1) }
        var ends: [Int] = []
        next.forEach { ends.append($0) }
        return ends
    }

    @Test func advanceEqualsTryingEveryValueAtEveryPosition() {
        var random = SeededRandom(seed: 0x7815)
        let alphabet = Array("abc".utf8)
        var nonEmpty = 0
        for _ in 0..<400 {
            let values = (0..<Int(random.next() % 6)).map { _ in
                (0..<Int(random.next() % 5)).map { _ in alphabet[Int(random.next() % 3)] }
            }
            let s = (0..<Int(random.next() % 150)).map { _ in alphabet[Int(random.next() % 3)] }
            let starts = Set((0...s.count).filter { _ in random.next() % 3 == 0 })
            let expected = Self.reference(values, s, starts)
            if !expected.isEmpty { nonEmpty += 1 }
            #expect(Self.advanced(values, s, starts) == expected, "\(values) from \(starts.sorted())")
        }
        #expect(nonEmpty > 100, "too few walks reached anything: \(nonEmpty)")
    }

    @Test func sharedPrefixesShareNodes() {
        let values = (1...64).map { Array(repeating: UInt8(ascii: "a"), count: $0) }
        #expect(ValueTrie(values).nodeCount == 65)
        #expect(ValueTrie(values + values).nodeCount == 65)
    }
}
