import RouteCore

/// Turns `route add` / `route update` flags into a `Route`.
enum RouteFlags {
    /// Flags both add and update understand.
    static let shared: [FlagSpec] = [
        .value(
            "query", "NAME=PATTERN", "query item that must match; a single value without '=' matches the whole query",
            repeatable: true),
        .value("fragment", "PATTERN", "fragment pattern (after #)"),
        .bool("exclude", "links matching this route always open in the browser"),
        .value(
            "since", "PLATFORM=VERSION", "first version that handles it (ios=5.12.0, android=51200)", repeatable: true),
        .value("until", "PLATFORM=VERSION", "first version that no longer handles it (exclusive)", repeatable: true),
        .bool("case-insensitive", "match case-insensitively"),
        .bool("percent-decoded", "match the percent-decoded URL (percentEncoded: false)"),
        .value("comment", "TEXT", "why the route exists"),
        .value("domain", "HOST", "only on this host (default: every domain of the app)", repeatable: true),
        .value("scheme", "SCHEME", "a custom-scheme route (badoo://...) instead of a web link"),
        .value("web-fallback", "URL", "custom-scheme routes: web URL to fall back to ({path}, {query})"),
    ]

    /// Flags only update understands: how to undo what add set.
    static let updateOnly: [FlagSpec] = [
        .value("path", "PATTERN", "new path pattern (AASA syntax, e.g. /l/a/*)"),
        .bool("open", "links matching this route open in the app (the opposite of --exclude)"),
        .bool("clear-query", "remove the query pattern"),
        .bool("clear-fragment", "remove the fragment pattern"),
        .bool("case-sensitive", "match case-sensitively again"),
        .value("drop-platform", "PLATFORM", "no version of this platform handles it any more", repeatable: true),
        .bool("all-domains", "apply to every domain of the app again"),
    ]

    /// A new route from `route add APP ID PATTERN` and its flags.
    static func newRoute(id: String, path: String, _ arguments: ParsedArguments) throws(UsageError) -> Route {
        var route = Route(id: id, pattern: URLPattern(path: path))
        try apply(arguments, to: &route)
        return route
    }

    /// Applies the flags given to `route`; flags not given leave it as it is.
    static func apply(_ arguments: ParsedArguments, to route: inout Route) throws(UsageError) {
        if let path = arguments.value("path") { route.pattern.path = path }
        if arguments.has("query") { route.pattern.query = try query(arguments.values("query")) }
        if arguments.bool("clear-query") { route.pattern.query = nil }
        if let fragment = arguments.value("fragment") { route.pattern.fragment = fragment }
        if arguments.bool("clear-fragment") { route.pattern.fragment = nil }
        if arguments.bool("case-insensitive") && arguments.bool("case-sensitive") {
            throw UsageError("--case-insensitive and --case-sensitive contradict each other")
        }
        if arguments.bool("case-insensitive") { route.pattern.caseSensitive = false }
        if arguments.bool("case-sensitive") { route.pattern.caseSensitive = true }
        if arguments.bool("percent-decoded") { route.pattern.percentEncoded = false }
        if let scheme = arguments.value("scheme") { route.pattern.scheme = scheme }
        if let fallback = arguments.value("web-fallback") { route.webFallback = fallback }
        if let comment = arguments.value("comment") { route.comment = comment }
        if arguments.has("domain") { route.domains = arguments.values("domain") }
        if arguments.bool("all-domains") { route.domains = [] }
        if arguments.bool("exclude") && arguments.bool("open") {
            throw UsageError("--exclude and --open contradict each other")
        }
        if arguments.bool("exclude") { route.action = .exclude }
        if arguments.bool("open") { route.action = .open }
        try applyVersions(arguments, to: &route)
    }

    private static func applyVersions(_ arguments: ParsedArguments, to route: inout Route) throws(UsageError) {
        let since = try ArgumentValues.platformVersions(arguments.values("since"), flag: "since")
        let until = try ArgumentValues.platformVersions(arguments.values("until"), flag: "until")
        if route.action == .exclude && (!since.isEmpty || !until.isEmpty) {
            throw UsageError("--since/--until: an exclude route has no version range (links always go to the browser)")
        }
        for name in arguments.values("drop-platform") {
            route.platforms[try ArgumentValues.platform(name, field: "--drop-platform")] = nil
        }
        for (platform, text) in since {
            let version = try ArgumentValues.version(text, field: "--since \(platform.rawValue)")
            route.platforms[platform, default: VersionRange(since: version)].since = version
        }
        for (platform, text) in until {
            guard var range = route.platforms[platform] else {
                throw UsageError("--until \(platform.rawValue) needs --since \(platform.rawValue)=VERSION")
            }
            // `none` reopens the range: update needs a way to undo an earlier --until.
            range.until = text == "none" ? nil : try ArgumentValues.version(text, field: "--until \(platform.rawValue)")
            route.platforms[platform] = range
        }
        if route.action == .exclude { route.platforms = [:] }
    }

    /// `--query a=x --query b=y` → items; a single `--query STRING` without `=` → whole-query pattern.
    static func query(_ values: [String]) throws(UsageError) -> QueryPattern {
        if values.count == 1, !values[0].contains("=") { return .string(values[0]) }
        var items: [String: String] = [:]
        for value in values {
            let (name, pattern) = try ArgumentValues.pair(value, flag: "query", placeholder: "NAME=PATTERN")
            if items[name] != nil { throw UsageError("--query: item \"\(name)\" given more than once") }
            items[name] = pattern
        }
        return .items(items)
    }
}
