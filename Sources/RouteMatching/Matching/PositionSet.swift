/// A set of positions `0..<count` in a URL component, one bit each: the matcher's state between tokens.
///
/// The general matcher advances a whole set of reachable positions token by token instead of
/// backtracking, so a token is applied once per reachable position; word-wide operations (union, a
/// shifted intersection with a byte's occurrences) let a substitution variable's values be tried from
/// every position at once, 64 positions per instruction.
struct PositionSet: Equatable {
    /// How many positions the set ranges over (positions `0..<count`).
    let count: Int
    private(set) var words: [UInt64]

    /// The empty set over `0..<count`.
    init(count: Int) {
        self.count = count
        words = [UInt64](repeating: 0, count: (count + 63) >> 6)
    }

    var isEmpty: Bool { !words.contains { $0 != 0 } }

    @inline(__always)
    func contains(_ p: Int) -> Bool {
        p >= 0 && p < count && words[p >> 6] & (1 << UInt64(p & 63)) != 0
    }

    @inline(__always)
    mutating func insert(_ p: Int) {
        words[p >> 6] |= 1 << UInt64(p & 63)
    }

    /// How many members the set holds.
    var population: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// The smallest member, nil when empty.
    var first: Int? {
        for (index, word) in words.enumerated() where word != 0 { return index << 6 + word.trailingZeroBitCount }
        return nil
    }

    /// Calls `body` with each member in ascending order.
    @inline(__always)
    func forEach(_ body: (Int) -> Void) {
        for index in words.indices {
            var word = words[index]
            while word != 0 {
                body(index << 6 + word.trailingZeroBitCount)
                word &= word &- 1
            }
        }
    }

    mutating func formUnion(_ other: PositionSet) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    /// Adds every member of `other` moved up by `shift` (members that would pass `count` are dropped).
    mutating func formUnion(_ other: PositionSet, shiftedUpBy shift: Int) {
        guard shift < count else { return }
        let (wordShift, bitShift) = (shift >> 6, UInt64(shift & 63))
        other.words.withUnsafeBufferPointer { source in
            words.withUnsafeMutableBufferPointer { target in
                var index = target.count - 1
                while index >= wordShift {
                    let from = index - wordShift
                    var word = source[from] << bitShift
                    if bitShift != 0 && from > 0 { word |= source[from - 1] >> (64 - bitShift) }
                    target[index] |= word
                    index -= 1
                }
            }
        }
        clearPastCount()
    }

    /// Keeps the members `p` for which `mask` holds `p + offset`.
    mutating func formIntersection(_ mask: PositionSet, shiftedDownBy offset: Int) {
        let (wordShift, bitShift) = (offset >> 6, UInt64(offset & 63))
        mask.words.withUnsafeBufferPointer { source in
            words.withUnsafeMutableBufferPointer { target in
                for index in target.indices {
                    let from = index + wordShift
                    var word: UInt64 = from < source.count ? source[from] >> bitShift : 0
                    if bitShift != 0 && from + 1 < source.count { word |= source[from + 1] << (64 - bitShift) }
                    target[index] &= word
                }
            }
        }
    }

    /// Removes every member below `p`.
    mutating func removeAll(below p: Int) {
        guard p > 0 else { return }
        let limit = min(p, count)
        for index in 0..<(limit >> 6) { words[index] = 0 }
        if limit & 63 != 0 { words[limit >> 6] &= ~((1 << UInt64(limit & 63)) - 1) }
    }

    private mutating func clearPastCount() {
        if count & 63 != 0 { words[words.count - 1] &= (1 << UInt64(count & 63)) - 1 }
    }
}
