/// One general match of a URL component: the subject, its character boundaries, and what the walk caches
/// for the length of the match (each byte's occurrences, each user variable's trie).
struct MatchWalk {
    let s: UnsafeBufferPointer<UInt8>
    /// The positions where a character starts, and the end: where `*` may stop.
    private let boundaries: PositionSet
    private var occurrences: [PositionSet?] = Array(repeating: nil, count: 256)
    /// Per distinct user variable met so far: its values (to recognise it), plain values' trie, wildcards.
    private var variables: [(values: [[PatternToken]], trie: ValueTrie, bytes: [UInt8], wildcards: [[PatternToken]])] =
        []

    init(_ s: UnsafeBufferPointer<UInt8>) {
        self.s = s
        var boundaries = PositionSet(count: s.count + 1)
        var i = 0
        while i < s.count {
            boundaries.insert(i)
            i = min(s.count, i + TextForms.scalarLength(s[i]))
        }
        boundaries.insert(s.count)
        self.boundaries = boundaries
    }

    /// Every position where `tokens`, started at any position in `starts`, can end.
    mutating func ends(_ tokens: [PatternToken], from starts: PositionSet) -> PositionSet {
        var positions = starts
        for token in tokens {
            guard let first = positions.first else { return positions }
            var next = PositionSet(count: s.count + 1)
            switch token {
            case .anyRun:
                next = boundaries
                next.removeAll(below: first)
            case .subpathTail:
                var tail = false
                positions.forEach { p in if p == s.count || s[p] == 0x2F { tail = true } }
                if tail { next.insert(s.count) }
            case .oneOf(let values):
                let slot = variable(values)
                occurrencesReady(for: variables[slot].bytes)
                let table = occurrences
                variables[slot].trie.advance(from: positions, into: &next) { table[Int($0)]! }
                // Values with wildcards (rare) are walked from every position at once, as before.
                for value in variables[slot].wildcards { next.formUnion(ends(value, from: positions)) }
            case .literal(let bytes) where positions.population > positions.words.count:
                // Many starts: narrow them all at once, a word of positions per instruction, which costs
                // the literal's length times the words, never more than trying each start in turn.
                occurrencesReady(for: bytes)
                var matched = positions
                for (offset, byte) in bytes.enumerated() where !matched.isEmpty {
                    matched.formIntersection(occurrences[Int(byte)]!, shiftedDownBy: offset)
                }
                next.formUnion(matched, shiftedUpBy: bytes.count)
            default:
                let s = self.s
                positions.forEach { p in
                    if let q = CompiledPattern.step(token, s, p) { next.insert(q) }
                }
            }
            positions = next
        }
        return positions
    }

    /// The slot of the variable with `values`, made on first use.
    private mutating func variable(_ values: [[PatternToken]]) -> Int {
        if let known = variables.firstIndex(where: { $0.values == values }) { return known }
        var plain: [[UInt8]] = []
        var wildcards: [[PatternToken]] = []
        for value in values {
            var bytes: [UInt8] = []
            var isPlain = true
            for token in value {
                if case .literal(let literal) = token { bytes += literal } else { isPlain = false }
            }
            if isPlain { plain.append(bytes) } else { wildcards.append(value) }
        }
        let trie = ValueTrie(plain)
        variables.append((values, trie, trie.bytes.sorted(), wildcards))
        return variables.count - 1
    }

    /// Builds the occurrence set of every byte in `bytes` not cached yet, in one pass over the subject.
    private mutating func occurrencesReady(for bytes: [UInt8]) {
        let missing = Array(Set(bytes.filter { occurrences[Int($0)] == nil }))
        guard !missing.isEmpty else { return }
        var wanted = [Bool](repeating: false, count: 256)
        var sets = [PositionSet](repeating: PositionSet(count: s.count + 1), count: 256)
        for byte in missing { wanted[Int(byte)] = true }
        for i in 0..<s.count where wanted[Int(s[i])] { sets[Int(s[i])].insert(i) }
        for byte in missing { occurrences[Int(byte)] = sets[Int(byte)] }
    }
}
