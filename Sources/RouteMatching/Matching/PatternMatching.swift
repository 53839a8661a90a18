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
    /// even hostile user variables such as `*a*a*a*b` stay polynomial.
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
        return ends(tokens, s, boundaries, from: starts)[s.count]
    }

    /// Every position where `tokens`, started at any position in `starts`, can end.
    private static func ends(
        _ tokens: [PatternToken], _ s: UnsafeBufferPointer<UInt8>, _ boundaries: [Bool], from starts: [Bool]
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
                for value in values {
                    for (q, reached) in ends(value, s, boundaries, from: positions).enumerated() where reached {
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
