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
                for p in first...s.count where positions[p] {
                    for q in reach[slot].ends(from: p, s) { next[q] = true }
                }
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
    private let plain: [[UInt8]]
    private var memo: [[Int]?]

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
        self.plain = plain.sorted { $0.lexicographicallyPrecedes($1) }
        self.wildcards = wildcards
        memo = [[Int]?](repeating: nil, count: count + 1)
    }

    /// The positions after each plain value that `s` holds at `p`.
    mutating func ends(from p: Int, _ s: UnsafeBufferPointer<UInt8>) -> [Int] {
        if let known = memo[p] { return known }
        var found: [Int] = []
        var low = 0
        var high = plain.count
        var depth = 0
        // Invariant: plain[low..<high] are the values that start with s[p..<p+depth].
        while low < high {
            // A value exactly that long sorts first in the range (a prefix precedes its extensions).
            if plain[low].count == depth {
                found.append(p + depth)
                low += 1
                if low == high { break }
            }
            guard p + depth < s.count else { break }
            if high - low == 1 {
                // One value left: compare the rest of it at once.
                let value = plain[low]
                if value.count <= s.count - p, (depth..<value.count).allSatisfy({ value[$0] == s[p + $0] }) {
                    found.append(p + value.count)
                }
                break
            }
            let byte = s[p + depth]
            low = Self.partition(plain, low, high) { $0[depth] < byte }
            high = Self.partition(plain, low, high) { $0[depth] <= byte }
            depth += 1
        }
        memo[p] = found
        return found
    }

    /// The first index in `low..<high` where `before` turns false (it holds for a prefix of the range).
    private static func partition(_ values: [[UInt8]], _ low: Int, _ high: Int, _ before: ([UInt8]) -> Bool) -> Int {
        var low = low
        var high = high
        while low < high {
            let middle = (low + high) / 2
            if before(values[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
