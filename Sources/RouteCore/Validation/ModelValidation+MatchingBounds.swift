/// The bound that keeps every public decision cheap whatever a tenant wrote.
///
/// A `$(name)` of the domain's own `substitutionVariables` is a choice among its values at every place it
/// appears, so what a pattern costs to match grows with its variable tokens times their values (the
/// matcher tries each value where each token may start), times the URL's length. The URL is bounded by
/// the API (`maxLength` 8192 on `CanOpen.Check` and `Links.Resolve`), and this bounds the rest: the values
/// of every variable token of one pattern (the path, the query, each query item, the fragment) may add up
/// to `maxSubstitutionAlternatives`. It is checked on both sides of the product: when a route is written
/// (against the variables of every domain it applies to) and when a domain is created (against the routes
/// already written for its apps).
extension ModelValidation {
    /// The most values the variable tokens of one pattern may offer in all (`$(v)` with 4 values used
    /// twice offers 8). No association file the project has seen comes near: the real-world corpus uses no
    /// variables at all, Apple's own example one variable of a few values.
    public static let maxSubstitutionAlternatives = 256

    /// Apple's predefined variables: one character or code each, never a list (they win over user lists).
    private static let predefinedVariables: Set<Substring> = [
        "alpha", "upper", "lower", "alnum", "digit", "xdigit", "lang", "region",
    ]

    /// The user-variable tokens of `pattern` and the values they offer in all, read as the matcher reads
    /// them (a `$(name)` runs to the first `)`; an unknown or predefined name is not a list).
    public static func substitutionAlternatives(_ pattern: String, variables: [String: [String]]) -> (
        tokens: Int, values: Int
    ) {
        guard !variables.isEmpty else { return (0, 0) }
        var tokens = 0
        var values = 0
        var rest = Substring(pattern)
        while let start = rest.range(of: "$(") {
            guard let close = rest[start.upperBound...].firstIndex(of: ")") else { break }
            let name = rest[start.upperBound..<close]
            if !predefinedVariables.contains(name), let list = variables[String(name)] {
                tokens += 1
                values += list.reduce(0) { $0 + weight($1) }
                rest = rest[rest.index(after: close)...]
            } else {
                // Not a variable: the matcher keeps `$(` as text and reads on after the `$`.
                rest = rest[rest.index(after: start.lowerBound)...]
            }
        }
        return (tokens, values)
    }

    /// The most values the variable tokens of all of one app's routes on one domain may offer in all: what
    /// one `CanOpen.Check` (one app, one host, every candidate rule in turn) can be made to walk. Four
    /// patterns at the bound, or many ordinary ones (Apple's example would use a few dozen).
    public static let maxSubstitutionAlternativesPerApp = 1024

    /// The values `route`'s patterns offer in all with `variables`.
    public static func substitutionAlternatives(_ route: Route, variables: [String: [String]]) -> Int {
        guard !variables.isEmpty, route.pattern.scheme == nil else { return 0 }
        return components(route.pattern).reduce(0) { $0 + substitutionAlternatives($1.1, variables: variables).values }
    }

    /// Whether `route` is one of the rules served on the (alias-resolved) domain `host`.
    public static func applies(_ route: Route, on host: String) -> Bool {
        route.pattern.scheme == nil && (route.domains.isEmpty || route.domains.contains { Domain.sameHost($0, host) })
    }

    /// Refuses when `routes`, one app's routes served on `host` as they would be after the write, offer more
    /// values in all than `maxSubstitutionAlternativesPerApp`; `field` is the field the refusal names.
    public static func substitutionTotal(
        _ routes: [Route], app: String, variables: [String: [String]], host: String, field: String
    ) throws(RegistryError) {
        let total = routes.reduce(0) { $0 + substitutionAlternatives($1, variables: variables) }
        guard total > maxSubstitutionAlternativesPerApp else { return }
        throw .invalidArgument(
            field: field,
            "\(ResourceName.app(app))'s routes on \(ResourceName.domain(host)) would offer \(total) substitution values "
                + "in all, over the \(maxSubstitutionAlternativesPerApp) one app's routes may offer on one domain")
    }

    /// What one value counts for: 1 for plain text (the matcher walks a variable's plain values together,
    /// once per position, whatever the tokens), one per character for a value holding `*` or `?` (walked on
    /// its own, at every token that uses it).
    static func weight(_ value: String) -> Int {
        value.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }
            ? max(1, value.unicodeScalars.count) : 1
    }

    /// The longest substitution value, in characters: words and slugs (Apple's example is `burrito`), and a
    /// bound on how far the matcher reads from each position of a URL.
    public static let maxSubstitutionValueLength = 64

    /// Refuses a route whose patterns, with `variables` (those of `host`), offer more alternatives than the
    /// bound; `field` is the route's path in the request (`route`, `routes[2]`).
    public static func substitutionBound(
        _ route: Route, variables: [String: [String]], host: String, field: String = "route"
    ) throws(RegistryError) {
        guard !variables.isEmpty else { return }
        for (component, pattern) in components(route.pattern) {
            let (tokens, values) = substitutionAlternatives(pattern, variables: variables)
            guard values > maxSubstitutionAlternatives else { continue }
            throw .invalidArgument(
                field: "\(field).pattern.\(component)",
                boundText(tokens: tokens, values: values) + " on \(ResourceName.domain(host))")
        }
    }

    /// Refuses a new domain whose `substitutionVariables` would take one of `routes` (written for its apps)
    /// over the bound; names the variable of the offending pattern with the most values.
    public static func substitutionBound(
        _ domain: Domain, routes: [(app: String, route: Route)], field: String = "domain"
    ) throws(RegistryError) {
        guard let variables = domain.substitutionVariables, !variables.isEmpty, domain.aliasOf == nil else { return }
        for (app, route) in routes where applies(route, on: domain.host) {
            for (component, pattern) in components(route.pattern) {
                let (tokens, values) = substitutionAlternatives(pattern, variables: variables)
                guard values > maxSubstitutionAlternatives else { continue }
                let used = variables.keys.filter { pattern.contains("$(\($0))") }
                let name = used.max { (variables[$0]!.count, $1) < (variables[$1]!.count, $0) } ?? ""
                throw .invalidArgument(
                    field: "\(field).substitutionVariables.\(name)",
                    boundText(tokens: tokens, values: values) + " in \(ResourceName.route(app: app, id: route.id))"
                        + " pattern.\(component)")
            }
        }
        let widest = variables.keys.max { (variables[$0]!.count, $1) < (variables[$1]!.count, $0) } ?? ""
        for app in Set(routes.map(\.app)).sorted() {
            try substitutionTotal(
                routes.filter { $0.app == app && applies($0.route, on: domain.host) }.map(\.route), app: app,
                variables: variables, host: domain.host, field: "\(field).substitutionVariables.\(widest)")
        }
    }

    /// "64 substitution tokens × 51 values exceeds 256 …", or the total when the tokens differ.
    private static func boundText(tokens: Int, values: Int) -> String {
        let offer =
            values % tokens == 0
            ? "\(tokens) substitution tokens × \(values / tokens) values"
            : "\(tokens) substitution tokens with \(values) values in all"
        return "\(offer) exceeds \(maxSubstitutionAlternatives), the most values the variables of one pattern may "
            + "offer (a value with * or ? counts one per character)"
    }

    /// The route's pattern texts by their field under `pattern` (`path`, `query`, `query.id`, `fragment`).
    private static func components(_ pattern: URLPattern) -> [(String, String)] {
        var out: [(String, String)] = []
        if let path = pattern.path { out.append(("path", path)) }
        switch pattern.query {
        case nil: break
        case .string(let text)?: out.append(("query", text))
        case .items(let items)?: out += items.sorted { $0.key < $1.key }.map { ("query.\($0.key)", $0.value) }
        }
        if let fragment = pattern.fragment { out.append(("fragment", fragment)) }
        return out
    }
}
