/// Finds, among earlier rules, the few that could cover a rule, so lint and compaction stay near-linear on
/// documents with thousands of rules instead of comparing every pair.
///
/// `ResolvedPattern.covers` only proves coverage in three shapes, and each has a lookup: a rule with no
/// path (or an all-`*` path) is a candidate for everything; `P*` with a literal `P` covers only paths whose
/// literal prefix starts with `P`; any other path covers only an equal path.
struct CoverageIndex {
    private var generic: [Int] = []
    private var prefixes: [String: [Int]] = [:]
    private var foldedPrefixes: [String: [Int]] = [:]
    private var exact: [String: [Int]] = [:]
    private var foldedExact: [String: [Int]] = [:]

    private enum Kind {
        case generic
        case prefix(String)
        case exact(String)
    }

    private static func kind(_ pattern: ResolvedPattern) -> Kind {
        guard let path = pattern.path else { return .generic }
        let normalized = ResolvedPattern.normalizedPath(path)
        if normalized.allSatisfy({ $0 == "*" }) { return .generic }
        if normalized.hasSuffix("*") {
            let literal = normalized.dropLast()
            if !literal.contains(where: { $0 == "*" || $0 == "?" }) && !literal.contains("$(")
                && !literal.contains("//")
            {
                return .prefix(String(literal))
            }
        }
        return .exact(normalized)
    }

    mutating func insert(_ pattern: ResolvedPattern, at index: Int) {
        let fold = !pattern.caseSensitive
        switch Self.kind(pattern) {
        case .generic: generic.append(index)
        case .prefix(let key):
            if fold {
                foldedPrefixes[key.lowercased(), default: []].append(index)
            } else {
                prefixes[key, default: []].append(index)
            }
        case .exact(let key):
            if fold {
                foldedExact[key.lowercased(), default: []].append(index)
            } else {
                exact[key, default: []].append(index)
            }
        }
    }

    /// Indices of inserted rules that might cover `pattern`, ascending.
    func coverCandidates(of pattern: ResolvedPattern) -> [Int] {
        var out = generic
        if let path = pattern.path {
            let normalized = ResolvedPattern.normalizedPath(path)
            let folded = normalized.lowercased()
            out += exact[normalized] ?? []
            out += foldedExact[folded] ?? []
            if !normalized.contains("$(") {
                let literal = ResolvedPattern.literalPrefix(normalized).prefix
                let foldedLiteral = literal.lowercased()
                for length in 0...literal.count {
                    out += prefixes[String(literal.prefix(length))] ?? []
                }
                for length in 0...foldedLiteral.count {
                    out += foldedPrefixes[String(foldedLiteral.prefix(length))] ?? []
                }
            }
        }
        return out.sorted()
    }

    /// The earliest inserted rule that covers `pattern`, if any.
    func firstCovering(_ pattern: ResolvedPattern, in patterns: [ResolvedPattern]) -> Int? {
        coverCandidates(of: pattern).first { patterns[$0].covers(pattern) }
    }
}
