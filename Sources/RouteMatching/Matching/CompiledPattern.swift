/// One component pattern (`/`, `?` or `#`, or the value of a query item), compiled to tokens.
///
/// Compilation resolves substitution variables, canonicalises path patterns the way URLs are
/// canonicalised (see `TextForms.canonicalPath`), and folds case for case-insensitive rules, so that
/// matching is a plain byte comparison against the URL's matching form.
final class CompiledPattern: Sendable {
    let tokens: [PatternToken]
    /// The flattened form for the hot path; nil when a user variable offers alternatives, which needs the
    /// general matcher over `tokens`.
    let program: PatternProgram?
    /// What every matching subject starts with, for the prefix index: bytes (0...255), and
    /// `PrefixTrie.anyScalar` for a fixed-width wildcard (`?`, `$(digit)`, each letter of `$(lang)`…).
    let indexKey: [Int16]
    /// Whether the pattern matches "" (a missing query item counts as empty).
    let matchesEmpty: Bool

    convenience init(_ pattern: String, isPath: Bool, folded: Bool, variables: SubstitutionVariables) {
        var tokens = Self.tokenize(Array(pattern.utf8), variables: variables)
        if isPath { tokens = Self.canonicalPath(tokens) }
        if folded { tokens = tokens.map(Self.folded) }
        self.init(tokens: tokens)
    }

    init(tokens: [PatternToken]) {
        self.tokens = tokens
        program = PatternProgram(tokens)
        indexKey = Self.indexKey(tokens)
        matchesEmpty = [UInt8]().withUnsafeBufferPointer { Self.generalMatch(tokens, $0) }
    }

    /// The fixed-width start of `tokens`, up to the first star, tail or user variable.
    private static func indexKey(_ tokens: [PatternToken]) -> [Int16] {
        var key: [Int16] = []
        for token in tokens {
            switch token {
            case .literal(let bytes): key += bytes.map { Int16($0) }
            case .anyCharacter, .characterClass: key.append(PrefixTrie.anyScalar)
            case .twoLetterCode: key += [PrefixTrie.anyScalar, PrefixTrie.anyScalar]
            case .anyRun, .subpathTail, .oneOf: return key
            }
        }
        return key
    }

    /// Splits a pattern into tokens; `$(name)` becomes a variable when `variables` knows it (user values are
    /// tokenized without variables: Apple does not let values reference other variables), literal otherwise.
    static func tokenize(_ bytes: [UInt8], variables: SubstitutionVariables?) -> [PatternToken] {
        var tokens: [PatternToken] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { tokens.append(.literal(literal)) }
            literal = []
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "*") {
                flush()
                if tokens.last != .anyRun { tokens.append(.anyRun) }
                i += 1
            } else if byte == UInt8(ascii: "?") {
                flush()
                tokens.append(.anyCharacter)
                i += 1
            } else if byte == UInt8(ascii: "$"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "("),
                let close = bytes[(i + 2)...].firstIndex(of: UInt8(ascii: ")")),
                let token = variables?.token(named: String(decoding: bytes[(i + 2)..<close], as: UTF8.self))
            {
                flush()
                tokens.append(token)
                i = close + 1
            } else {
                literal.append(byte)
                i += 1
            }
        }
        flush()
        return tokens
    }

    /// Leading `/` optional, repeated `/` collapsed, trailing `/` dropped (except for the root pattern `/`),
    /// exactly as URL paths are canonicalised; a final `/*` becomes `subpathTail`.
    static func canonicalPath(_ tokens: [PatternToken]) -> [PatternToken] {
        var tokens = tokens
        if case .literal(let first)? = tokens.first, first.first == UInt8(ascii: "/") {
        } else {
            tokens.insert(.literal([UInt8(ascii: "/")]), at: 0)
        }
        tokens = mergeLiterals(tokens).map { token in
            guard case .literal(let bytes) = token else { return token }
            return .literal(TextForms.collapsingSlashes(bytes))
        }
        if tokens.count > 1 || tokens.first != .literal([UInt8(ascii: "/")]), case .literal(var last)? = tokens.last {
            while last.last == UInt8(ascii: "/") { last.removeLast() }
            tokens.removeLast()
            if !last.isEmpty { tokens.append(.literal(last)) }
        }
        if tokens.last == .anyRun, tokens.count >= 2, case .literal(var slash) = tokens[tokens.count - 2],
            slash.last == UInt8(ascii: "/")
        {
            slash.removeLast()
            tokens.removeLast(2)
            if !slash.isEmpty { tokens.append(.literal(slash)) }
            tokens.append(.subpathTail)
        }
        return tokens
    }

    private static func mergeLiterals(_ tokens: [PatternToken]) -> [PatternToken] {
        var out: [PatternToken] = []
        for token in tokens {
            if case .literal(let bytes) = token, case .literal(let previous)? = out.last {
                out[out.count - 1] = .literal(previous + bytes)
            } else if case .literal(let bytes) = token, bytes.isEmpty {
                continue
            } else {
                out.append(token)
            }
        }
        return out
    }

    static func folded(_ token: PatternToken) -> PatternToken {
        switch token {
        case .literal(let bytes): return .literal(TextForms.folded(bytes))
        case .anyCharacter, .anyRun, .subpathTail: return token
        case .characterClass(let cls): return .characterClass(cls.caseInsensitive)
        case .twoLetterCode(let codes): return .twoLetterCode(Set(codes.map { $0 | 0x2020 }))
        case .oneOf(let values): return .oneOf(values.map { $0.map(folded) })
        }
    }
}
