/// A rule's pattern with options resolved: the common shape lint and compaction reason about, whether it
/// came from a route or from a generated AASA component.
struct ResolvedPattern: Hashable {
    var path: String?
    var query: QueryPattern?
    var fragment: String?
    var caseSensitive: Bool
    var percentEncoded: Bool

    /// True when every URL `other` matches is also matched by `self`. Sound but conservative: it only
    /// proves coverage for equal patterns, all-`*` patterns and a literal prefix followed by `*`, and
    /// gives up on substitution variables.
    func covers(_ other: ResolvedPattern) -> Bool {
        if path == nil && query == nil && fragment == nil { return true }
        if percentEncoded != other.percentEncoded { return false }
        if caseSensitive && !other.caseSensitive { return false }
        let fold = !caseSensitive
        return Self.covers(path, other.path, fold: fold, isPath: true)
            && Self.covers(fragment, other.fragment, fold: fold, isPath: false)
            && Self.covers(query, other.query, fold: fold)
    }

    /// True when some URL might match both (conservative the other way: it says yes when unsure).
    func mayOverlap(_ other: ResolvedPattern) -> Bool {
        guard let a = path.map(Self.normalizedPath), let b = other.path.map(Self.normalizedPath) else { return true }
        if a.contains("$(") || b.contains("$(") || !caseSensitive || !other.caseSensitive { return true }
        let (prefixA, wildA) = Self.literalPrefix(a)
        let (prefixB, wildB) = Self.literalPrefix(b)
        switch (wildA, wildB) {
        case (false, false): return prefixA == prefixB
        case (false, true): return prefixA.hasPrefix(prefixB) || prefixB.hasPrefix(prefixA + "/")
        case (true, false): return prefixB.hasPrefix(prefixA) || prefixA.hasPrefix(prefixB + "/")
        case (true, true): return prefixA.hasPrefix(prefixB) || prefixB.hasPrefix(prefixA)
        }
    }

    private static func covers(_ a: String?, _ b: String?, fold: Bool, isPath: Bool) -> Bool {
        guard let a else { return true }
        guard let b else { return isAllStars(a) }
        var x = isPath ? normalizedPath(a) : a
        var y = isPath ? normalizedPath(b) : b
        // Variables expand to lists: only an identical pattern is known to match the same URLs.
        if x.contains("$(") || y.contains("$(") { return x == y }
        if fold {
            x = x.lowercased()
            y = y.lowercased()
        }
        if x == y || isAllStars(x) { return true }
        guard x.hasSuffix("*") else { return false }
        let prefix = String(x.dropLast())
        if prefix.contains(where: { $0 == "*" || $0 == "?" }) || (isPath && prefix.contains("//")) { return false }
        return literalPrefix(y).prefix.hasPrefix(prefix)
    }

    private static func covers(_ a: QueryPattern?, _ b: QueryPattern?, fold: Bool) -> Bool {
        switch (a, b) {
        case (nil, _): return true
        case (.string(let x)?, nil): return isAllStars(x)
        case (.items(let x)?, nil): return x.values.allSatisfy(isAllStars)
        case (.string(let x)?, .string(let y)?): return covers(x, y, fold: fold, isPath: false)
        case (.string(let x)?, .items?): return isAllStars(x)
        case (.items(let x)?, .string?): return x.values.allSatisfy(isAllStars)
        case (.items(let x)?, .items(let y)?):
            return x.allSatisfy { name, pattern in
                guard let other = y[name] else { return isAllStars(pattern) }
                return covers(pattern, other, fold: fold, isPath: false)
            }
        }
    }

    private static func isAllStars(_ text: String) -> Bool { !text.isEmpty && text.allSatisfy { $0 == "*" } }

    /// A leading `/` is optional and a trailing `/` ignored in AASA paths.
    static func normalizedPath(_ path: String) -> String {
        var text = path.hasPrefix("/") || path.hasPrefix("*") ? path : "/" + path
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The text before the first wildcard, and whether there is a wildcard at all.
    static func literalPrefix(_ pattern: String) -> (prefix: String, wildcard: Bool) {
        guard let index = pattern.firstIndex(where: { $0 == "*" || $0 == "?" }) else { return (pattern, false) }
        return (String(pattern[..<index]), true)
    }
}

extension ResolvedPattern {
    init(_ rule: ComponentRule) {
        let query: QueryPattern? =
            switch rule.query {
            case nil: nil
            case .string(let text)?: .string(text)
            case .items(let items)?: .items(items)
            }
        self.init(
            path: rule.path, query: query, fragment: rule.fragment, caseSensitive: rule.caseSensitive,
            percentEncoded: rule.percentEncoded)
    }

    init(_ component: AASAComponent, defaults: MatchDefaults?) {
        self.init(
            path: component.path, query: component.query, fragment: component.fragment,
            caseSensitive: component.caseSensitive ?? defaults?.caseSensitive ?? true,
            percentEncoded: component.percentEncoded ?? defaults?.percentEncoded ?? true)
    }
}
