/// Finds, among earlier rules, the few that could cover or overlap a rule, so lint and compaction stay
/// near-linear on documents with thousands of rules instead of comparing every pair.
///
/// A rule that covers another always has a path literal prefix (text before the first wildcard) that is a
/// prefix of the other's; rules without such a key (no path, case-insensitive, substitution variables) are
/// candidates for everything.
struct CoverageIndex {
    private var byKey: [String: [Int]] = [:]
    private var generic: [Int] = []

    /// The key of a rule that may cover others, or nil when it must be checked against everything.
    static func coveringKey(_ pattern: ResolvedPattern) -> String? {
        guard let path = pattern.path, pattern.caseSensitive, !path.contains("$(") else { return nil }
        return ResolvedPattern.literalPrefix(ResolvedPattern.normalizedPath(path)).prefix
    }

    /// The literal prefix of the rule's path (empty without a path): what covering keys must prefix.
    static func literalKey(_ pattern: ResolvedPattern) -> String {
        guard let path = pattern.path else { return "" }
        return ResolvedPattern.literalPrefix(ResolvedPattern.normalizedPath(path)).prefix
    }

    mutating func insert(_ pattern: ResolvedPattern, at index: Int) {
        if let key = Self.coveringKey(pattern) { byKey[key, default: []].append(index) } else { generic.append(index) }
    }

    /// Indices of inserted rules that might cover `pattern`, ascending.
    func coverCandidates(of pattern: ResolvedPattern) -> [Int] {
        let key = Self.literalKey(pattern)
        var out = generic
        var prefix = ""
        if let hit = byKey[""] { out += hit }
        for character in key {
            prefix.append(character)
            if let hit = byKey[prefix] { out += hit }
        }
        return out.sorted()
    }

    /// The earliest inserted rule that covers `pattern`, if any.
    func firstCovering(_ pattern: ResolvedPattern, in patterns: [ResolvedPattern]) -> Int? {
        coverCandidates(of: pattern).first { patterns[$0].covers(pattern) }
    }
}
