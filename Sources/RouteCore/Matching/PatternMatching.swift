extension CompiledPattern {
    /// True when the whole of `subject` (a matching form of a URL component) matches the pattern.
    func matches(_ subject: [UInt8]) -> Bool {
        subject.withUnsafeBufferPointer { Self.matches(tokens, deterministic: isDeterministic, $0) }
    }

    /// True when the whole of `subject` matches the pattern.
    @inline(__always)
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        Self.matches(tokens, deterministic: isDeterministic, subject)
    }

    static func matches(_ tokens: [PatternToken], deterministic: Bool, _ s: UnsafeBufferPointer<UInt8>) -> Bool {
        deterministic ? greedyMatch(tokens, s) : backtrackingMatch(tokens, 0, s, 0) { $0 == s.count }
    }

    /// Glob matching with one backtrack point. Correct because every token between two stars consumes a
    /// fixed number of characters, so the leftmost place where a star-free segment matches is always the
    /// best one: an earlier star never needs to give back what a later star can absorb.
    private static func greedyMatch(_ tokens: [PatternToken], _ s: UnsafeBufferPointer<UInt8>) -> Bool {
        var ti = 0
        var si = 0
        var starToken = -1
        var starSubject = 0
        while true {
            if ti < tokens.count {
                if case .anyRun = tokens[ti] {
                    starToken = ti
                    starSubject = si
                    ti += 1
                    continue
                }
                if case .subpathTail = tokens[ti], si == s.count || s[si] == UInt8(ascii: "/") {
                    return true
                }
                if let next = step(tokens[ti], s, si) {
                    ti += 1
                    si = next
                    continue
                }
            } else if si == s.count {
                return true
            }
            guard starToken >= 0, starSubject < s.count else { return false }
            starSubject = min(s.count, starSubject + TextForms.scalarLength(s[starSubject]))
            si = starSubject
            ti = starToken + 1
        }
    }

    /// Full backtracking, for patterns whose user variables offer alternatives of different shapes.
    private static func backtrackingMatch(
        _ tokens: [PatternToken], _ start: Int, _ s: UnsafeBufferPointer<UInt8>, _ from: Int, _ then: (Int) -> Bool
    ) -> Bool {
        var ti = start
        var si = from
        while ti < tokens.count {
            switch tokens[ti] {
            case .anyRun:
                var k = si
                while true {
                    if backtrackingMatch(tokens, ti + 1, s, k, then) { return true }
                    if k >= s.count { return false }
                    k = min(s.count, k + TextForms.scalarLength(s[k]))
                }
            case .subpathTail:
                return (si == s.count || s[si] == UInt8(ascii: "/")) && then(s.count)
            case .oneOf(let values):
                for value in values
                where backtrackingMatch(value, 0, s, si, { backtrackingMatch(tokens, ti + 1, s, $0, then) }) {
                    return true
                }
                return false
            default:
                guard let next = step(tokens[ti], s, si) else { return false }
                si = next
                ti += 1
            }
        }
        return then(si)
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
