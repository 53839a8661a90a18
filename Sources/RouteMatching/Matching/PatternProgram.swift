/// A deterministic pattern flattened for the hot path: plain-data instructions over one literal pool, so
/// matching touches no reference counts and allocates nothing.
final class PatternProgram: Sendable {
    /// One instruction. `start`/`count` locate a literal in `bytes`; for `code` `start` picks the code set.
    struct Op: Sendable, Hashable {
        var kind: Kind
        var start: Int32
        var count: Int32
    }

    enum Kind: UInt8, Sendable {
        case literal, anyCharacter, anyRun, subpathTail, code
        case alpha, upper, lower, alnum, digit, xdigit
    }

    let ops: [Op]
    let bytes: [UInt8]
    let codeSets: [TwoLetterCodeSet]

    /// Flattens `tokens`; nil when they hold a user variable with alternatives (not deterministic).
    init?(_ tokens: [PatternToken]) {
        var ops: [Op] = []
        var bytes: [UInt8] = []
        var codeSets: [TwoLetterCodeSet] = []
        for token in tokens {
            switch token {
            case .literal(let literal):
                ops.append(Op(kind: .literal, start: Int32(bytes.count), count: Int32(literal.count)))
                bytes += literal
            case .anyCharacter: ops.append(Op(kind: .anyCharacter, start: 0, count: 0))
            case .anyRun: ops.append(Op(kind: .anyRun, start: 0, count: 0))
            case .subpathTail: ops.append(Op(kind: .subpathTail, start: 0, count: 0))
            case .characterClass(let cls):
                let kind: Kind
                switch cls {
                case .alpha: kind = .alpha
                case .upper: kind = .upper
                case .lower: kind = .lower
                case .alnum: kind = .alnum
                case .digit: kind = .digit
                case .xdigit: kind = .xdigit
                }
                ops.append(Op(kind: kind, start: 0, count: 0))
            case .twoLetterCode(let codes):
                ops.append(Op(kind: .code, start: Int32(codeSets.count), count: 2))
                codeSets.append(TwoLetterCodeSet(codes))
            case .oneOf:
                return nil
            }
        }
        self.ops = ops
        self.bytes = bytes
        self.codeSets = codeSets
    }

    /// True when the whole of `s` matches. Glob matching with one backtrack point: every instruction
    /// between two stars consumes a fixed number of characters, so the leftmost place where a star-free
    /// segment matches is always the best one, and an earlier star never needs to give anything back.
    func matches(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        ops.withUnsafeBufferPointer { ops in
            bytes.withUnsafeBufferPointer { pool in
                var oi = 0
                var si = 0
                var starOp = -1
                var starSubject = 0
                let n = s.count
                while true {
                    if oi < ops.count {
                        let op = ops[oi]
                        if op.kind == .anyRun {
                            starOp = oi
                            starSubject = si
                            oi += 1
                            continue
                        }
                        if let next = step(op, pool, s, si) {
                            if next == n + 1 { return true }  // subpath tail accepted the rest
                            oi += 1
                            si = next
                            continue
                        }
                    } else if si == n {
                        return true
                    }
                    guard starOp >= 0, starSubject < n else { return false }
                    starSubject = Swift.min(n, starSubject + TextForms.scalarLength(s[starSubject]))
                    si = starSubject
                    oi = starOp + 1
                }
            }
        }
    }

    /// Consumes one fixed-width instruction at `si`: the new position, `s.count + 1` when a subpath tail
    /// accepts the rest, nil on mismatch.
    @inline(__always)
    private func step(_ op: Op, _ pool: UnsafeBufferPointer<UInt8>, _ s: UnsafeBufferPointer<UInt8>, _ si: Int) -> Int?
    {
        let n = s.count
        switch op.kind {
        case .literal:
            let count = Int(op.count)
            guard n - si >= count else { return nil }
            let start = Int(op.start)
            var i = 0
            while i < count {
                if pool[start + i] != s[si + i] { return nil }
                i += 1
            }
            return si + count
        case .anyCharacter:
            guard si < n else { return nil }
            return Swift.min(n, si + TextForms.scalarLength(s[si]))
        case .subpathTail:
            return si == n || s[si] == UInt8(ascii: "/") ? n + 1 : nil
        case .code:
            guard n - si >= 2, codeSets[Int(op.start)].contains(s[si], s[si + 1]) else { return nil }
            return si + 2
        case .alpha: return si < n && CharacterClass.alpha.contains(s[si]) ? si + 1 : nil
        case .upper: return si < n && CharacterClass.upper.contains(s[si]) ? si + 1 : nil
        case .lower: return si < n && CharacterClass.lower.contains(s[si]) ? si + 1 : nil
        case .alnum: return si < n && CharacterClass.alnum.contains(s[si]) ? si + 1 : nil
        case .digit: return si < n && CharacterClass.digit.contains(s[si]) ? si + 1 : nil
        case .xdigit: return si < n && CharacterClass.xdigit.contains(s[si]) ? si + 1 : nil
        case .anyRun: return nil
        }
    }
}

/// A set of two-ASCII-character codes as a 128×128 bit table: membership is one load and a mask.
struct TwoLetterCodeSet: Sendable, Hashable {
    private let bits: [UInt64]

    init(_ codes: Set<UInt16>) {
        var bits = [UInt64](repeating: 0, count: 128 * 128 / 64)
        for code in codes where code >> 8 < 128 && code & 0xFF < 128 {
            let index = Int(code >> 8) * 128 + Int(code & 0xFF)
            bits[index >> 6] |= 1 << UInt64(index & 63)
        }
        self.bits = bits
    }

    @inline(__always)
    func contains(_ first: UInt8, _ second: UInt8) -> Bool {
        guard first < 128, second < 128 else { return false }
        let index = Int(first) * 128 + Int(second)
        return bits[index >> 6] & (1 << UInt64(index & 63)) != 0
    }
}
