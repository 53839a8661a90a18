extension CompiledPattern {
    /// True when the whole of `subject` (a matching form of a URL component) matches the pattern.
    func matches(_ subject: [UInt8]) -> Bool {
        subject.withUnsafeBufferPointer { matches($0) }
    }

    /// True when the whole of `subject` matches the pattern.
    @inline(__always)
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        if let program { return program.matches(subject) }
        return Self.generalMatch(tokens, subject)
    }

    /// The general matcher over tokens, also the reference the flattened program is tested against. It
    /// tracks every position a prefix of the pattern can end at (an NFA walk) instead of backtracking, so
    /// even hostile user variables such as `*a*a*a*b` stay polynomial. A user variable's plain values are
    /// walked once per start position and call (`VariableReach`), however many tokens use the variable: a
    /// pattern repeating `$(v)` costs the URL's length times its tokens, not times its tokens' values too.
    static func generalMatch(_ tokens: [PatternToken], _ s: UnsafeBufferPointer<UInt8>) -> Bool {
        var boundaries = [Bool](repeating: false, count: s.count + 1)
        var i = 0
        while i < s.count {
            boundaries[i] = true
            i = min(s.count, i + TextForms.scalarLength(s[i]))
        }
        boundaries[s.count] = true
        var starts = [Bool](repeating: false, count: s.count + 1)
        starts[0] = true
        var reach: [VariableReach] = []
        return ends(tokens, s, boundaries, from: starts, reach: &reach)[s.count]
    }

    /// Every position where `tokens`, started at any position in `starts`, can end.
    private static func ends(
        _ tokens: [PatternToken], _ s: UnsafeBufferPointer<UInt8>, _ boundaries: [Bool], from starts: [Bool],
        reach: inout [VariableReach]
    ) -> [Bool] {
        var positions = starts
        for token in tokens {
            guard let first = positions.firstIndex(of: true) else { return positions }
            var next = [Bool](repeating: false, count: s.count + 1)
            switch token {
            case .anyRun:
                for q in first...s.count where boundaries[q] { next[q] = true }
            case .subpathTail:
                next[s.count] = positions.indices.contains { positions[$0] && ($0 == s.count || s[$0] == 0x2F) }
            case .oneOf(let values):
                let slot: Int
                if let known = reach.firstIndex(where: { $0.values == values }) {
                    slot = known
                } else {
                    slot = reach.count
                    reach.append(VariableReach(values, count: s.count))
                }
                for p in first...s.count where positions[p] { reach[slot].mark(from: p, s, into: &next) }
                // Values with wildcards (rare) are walked from every position at once, as before.
                for value in reach[slot].wildcards {
                    for (q, reached) in ends(value, s, boundaries, from: positions, reach: &reach).enumerated()
                    where reached {
                        next[q] = true
                    }
                }
            default:
                for p in first...s.count where positions[p] {
                    if let q = step(token, s, p) { next[q] = true }
                }
            }
            positions = next
        }
        return positions
    }

    /// Consumes one fixed-width token at `si`; nil when it does not match there.
    @inline(__always)
    private static func step(_ token: PatternToken, _ s: UnsafeBufferPointer<UInt8>, _ si: Int) -> Int? {
        switch token {
        case .literal(let bytes):
            guard s.count - si >= bytes.count else { return nil }
            var i = 0
            while i < bytes.count {
                if bytes[i] != s[si + i] { return nil }
                i += 1
            }
            return si + bytes.count
        case .anyCharacter:
            guard si < s.count else { return nil }
            return min(s.count, si + TextForms.scalarLength(s[si]))
        case .characterClass(let cls):
            guard si < s.count, cls.contains(s[si]) else { return nil }
            return si + 1
        case .twoLetterCode(let codes):
            guard s.count - si >= 2, codes.contains(UInt16(s[si]) << 8 | UInt16(s[si + 1])) else { return nil }
            return si + 2
        case .anyRun, .oneOf, .subpathTail:
            return nil
        }
    }
}

/// Where a user variable's plain values, started at a position, can end: memoised per position for one
/// match, so every token of the variable reuses the walk.
///
/// The plain values (no `?` or `*`) are sorted and walked together, narrowing the range that shares the
/// bytes read so far: a walk from one position costs the longest value it follows, whatever the number of
/// values.
struct VariableReach {
    /// The variable's values as compiled: what identifies it among a pattern's tokens.
    let values: [[PatternToken]]
    /// The values holding a wildcard, for the general walk.
    let wildcards: [[PatternToken]]
    /// The distinct plain values, sorted, in one pool (value i is `pool[starts[i]..<starts[i] + lengths[i]]`):
    /// the walk reads bytes, never an array of arrays.
    private let pool: [UInt8]
    private let starts: [Int]
    private let lengths: [Int]
    /// Per start position, where its ends sit in `found` (-1: not walked yet) and how many there are.
    private var first: [Int32]
    private var counts: [Int32]
    private var found: [Int32] = []

    init(_ values: [[PatternToken]], count: Int) {
        self.values = values
        var plain = Set<[UInt8]>()
        var wildcards: [[PatternToken]] = []
        for value in values {
            var bytes: [UInt8] = []
            var isPlain = true
            for token in value {
                if case .literal(let literal) = token { bytes += literal } else { isPlain = false }
            }
            if isPlain { plain.insert(bytes) } else { wildcards.append(value) }
        }
        var pool: [UInt8] = []
        var starts: [Int] = []
        var lengths: [Int] = []
        for value in plain.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            starts.append(pool.count)
            lengths.append(value.count)
            pool += value
        }
        self.pool = pool
        self.starts = starts
        self.lengths = lengths
        self.wildcards = wildcards
        first = [Int32](repeating: -1, count: count + 1)
        counts = [Int32](repeating: 0, count: count + 1)
    }

    /// Marks in `next` the position after each plain value that `s` holds at `p`.
    mutating func mark(from p: Int, _ s: UnsafeBufferPointer<UInt8>, into next: inout [Bool]) {
        if first[p] < 0 {
            first[p] = Int32(found.count)
            let (pool, starts, lengths) = (self.pool, self.starts, self.lengths)
            pool.withUnsafeBufferPointer { pool in
                starts.withUnsafeBufferPointer { starts in
                    lengths.withUnsafeBufferPointer { lengths in
                        Self.walk(from: p, s, pool, starts, lengths, into: &found)
                    }
                }
            }
            counts[p] = Int32(found.count) - first[p]
        }
        let start = Int(first[p])
        for index in start..<(start + Int(counts[p])) { next[Int(found[index])] = true }
    }

    /// Appends to `found` the end of each value (sorted, in `pool`) that `s` holds at `p`.
    private static func walk(
        from p: Int, _ s: UnsafeBufferPointer<UInt8>, _ pool: UnsafeBufferPointer<UInt8>,
        _ starts: UnsafeBufferPointer<Int>, _ lengths: UnsafeBufferPointer<Int>, into found: inout [Int32]
    ) {
        var low = 0
        var high = lengths.count
        var depth = 0
        // Invariant: values low..<high are those that start with s[p..<p+depth]; all are at least depth long.
        while low < high {
            // A value exactly that long sorts first in the range (a prefix precedes its extensions).
            if lengths[low] == depth {
                found.append(Int32(p + depth))
                low += 1
                if low == high { break }
            }
            guard p + depth < s.count else { break }
            if high - low == 1 {
                // One value left: compare the rest of it at once.
                let (start, length) = (starts[low], lengths[low])
                guard length <= s.count - p else { break }
                var i = depth
                while i < length && pool[start + i] == s[p + i] { i += 1 }
                if i == length { found.append(Int32(p + length)) }
                break
            }
            let byte = s[p + depth]
            // Sorted: when the first and the last agree with the URL, every value between does too.
            if pool[starts[low] + depth] != byte || pool[starts[high - 1] + depth] != byte {
                var lo = low
                var hi = high
                while lo < hi {
                    let middle = (lo + hi) / 2
                    if pool[starts[middle] + depth] < byte { lo = middle + 1 } else { hi = middle }
                }
                low = lo
                hi = high
                while lo < hi {
                    let middle = (lo + hi) / 2
                    if pool[starts[middle] + depth] <= byte { lo = middle + 1 } else { hi = middle }
                }
                high = lo
            }
            depth += 1
        }
    }
}
