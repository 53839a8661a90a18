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
    /// advances the set of positions a prefix of the pattern can end at (an NFA walk over a `PositionSet`)
    /// instead of backtracking, so even hostile user variables such as `*a*a*a*b` stay polynomial. A user
    /// variable's plain values are a `ValueTrie` walked from every reachable position at once: a token
    /// costs its trie's nodes times the URL's length over 64, not the URL's length times its values.
    static func generalMatch(_ tokens: [PatternToken], _ s: UnsafeBufferPointer<UInt8>) -> Bool {
        var walk = MatchWalk(s)
        var starts = PositionSet(count: s.count + 1)
        starts.insert(0)
        return walk.ends(tokens, from: starts).contains(s.count)
    }

    /// Consumes one fixed-width token at `si`; nil when it does not match there.
    @inline(__always)
    static func step(_ token: PatternToken, _ s: UnsafeBufferPointer<UInt8>, _ si: Int) -> Int? {
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
