import RouteCore

/// One AASA rule as a route, or why it cannot be one.
enum RuleImport {
    enum Outcome {
        /// The route, with notes on what was dropped from the rule.
        case route(Route, notes: [String])
        case skipped(String)
    }

    static let knownKeys: Set<String> = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]

    /// Converts `rule`, as `AASADocument` resolved it (defaults folded in, legacy `NOT ` read), so the route
    /// matches exactly the URLs the rule matches; `written` is the rule as it appears in the file (an object,
    /// or a string for a legacy path), read for its comment and for what the route cannot hold.
    static func route(
        _ rule: ComponentRule, written: JSONValue, id: String, fallback: FallbackPolicy,
        ranges: [Platform: VersionRange]
    ) -> Outcome {
        var notes: [String] = []
        let members: [String: JSONValue]
        if case .object(let object) = written { members = object } else { members = [:] }
        for key in members.keys.sorted() where !knownKeys.contains(key) {
            notes.append("key \"\(key)\" is not supported and was left out")
        }
        if let query = members["?"], rule.query == nil, query != .null {
            // AASADocument (and iOS) ignore such a query, so the rule matches any query: so does the route.
            notes.append("\"?\" is neither a string nor a dictionary of strings; iOS ignores it, and so does the route")
        }
        var pattern = URLPattern(path: rule.path, fragment: rule.fragment)
        switch rule.query {
        case .string(let text)?: pattern.query = .string(text)
        case .items(let items)?: pattern.query = .items(items)
        case nil: break
        }
        // Stated when the rule (or a default) says so; Apple's default otherwise, so the route inherits.
        if members["caseSensitive"] != nil || !rule.caseSensitive { pattern.caseSensitive = rule.caseSensitive }
        if members["percentEncoded"] != nil || !rule.percentEncoded { pattern.percentEncoded = rule.percentEncoded }
        if rule.exclude, pattern.path == nil, pattern.fragment == nil,
            case .items(let items)? = pattern.query, items == [fallback.queryItem: "?*"]
        {
            return .skipped("the fallback-marker exclusion; RouteRegistry generates it first in every AASA")
        }
        if [pattern.path, pattern.fragment].contains(where: { $0?.contains("$(") == true }) {
            notes.append("uses substitution variables: define them on the domain")
        }
        var route = Route(id: id, pattern: pattern, action: rule.exclude ? .exclude : .open)
        if !rule.exclude { route.platforms = ranges }
        route.comment = members["comment"]?.stringValue
        return .route(route, notes: notes)
    }
}
