import RouteCore

/// One AASA `components` rule as a route, or why it cannot be one.
enum RuleImport {
    enum Outcome {
        /// The route, with notes on what was dropped from the rule.
        case route(Route, notes: [String])
        case skipped(String)
    }

    static let knownKeys: Set<String> = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]

    /// Converts `rule`; `defaults` (the file's top-level `defaults`) fill options the rule leaves out.
    static func route(
        _ rule: JSONValue, id: String, defaults: JSONValue?, fallback: FallbackPolicy, ranges: [Platform: VersionRange]
    ) -> Outcome {
        guard case .object(let members) = rule else { return .skipped("not a JSON object") }
        var notes: [String] = []
        for key in members.keys.sorted() where !knownKeys.contains(key) {
            notes.append("key \"\(key)\" is not supported and was left out")
        }
        var pattern = URLPattern()
        if let path = members["/"] {
            guard let text = path.stringValue else { return .skipped("\"/\" is not a string") }
            pattern.path = text
        }
        switch members["?"] {
        case nil, .null?: break
        case .string(let text)?: pattern.query = .string(text)
        case .object(let items)?:
            var query: [String: String] = [:]
            for (name, value) in items {
                guard let text = value.stringValue else { return .skipped("query item \"\(name)\" is not a string") }
                query[name] = text
            }
            pattern.query = .items(query)
        default: return .skipped("\"?\" is neither a string nor a dictionary")
        }
        if let fragment = members["#"] {
            guard let text = fragment.stringValue else { return .skipped("\"#\" is not a string") }
            pattern.fragment = text
        }
        pattern.caseSensitive = bool(members["caseSensitive"]) ?? bool(defaults?["caseSensitive"])
        pattern.percentEncoded = bool(members["percentEncoded"]) ?? bool(defaults?["percentEncoded"])
        let exclude = bool(members["exclude"]) ?? false
        if exclude, pattern.path == nil, pattern.fragment == nil,
            case .items(let items)? = pattern.query, items == [fallback.queryItem: "?*"]
        {
            return .skipped("the fallback-marker exclusion; RouteRegistry generates it first in every AASA")
        }
        if [pattern.path, pattern.fragment].contains(where: { $0?.contains("$(") == true }) {
            notes.append("uses substitution variables: define them on the domain")
        }
        var route = Route(id: id, pattern: pattern, action: exclude ? .exclude : .open)
        if !exclude { route.platforms = ranges }
        route.comment = members["comment"]?.stringValue
        return .route(route, notes: notes)
    }

    private static func bool(_ value: JSONValue?) -> Bool? {
        if case .bool(let flag)? = value { return flag }
        return nil
    }
}
