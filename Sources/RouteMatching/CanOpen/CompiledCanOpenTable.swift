/// A canOpen table with its rule lists compiled, for deciding many URLs (the Swift client keeps one per
/// cached table).
public struct CompiledCanOpenTable: Sendable {
    /// The table as received.
    public let table: CanOpenTable
    private let domains: [String: (indices: [Int], rules: RuleSet)]
    private let schemes: [String: (indices: [Int], rules: RuleSet)]
    private let marker: RuleSet

    /// Compiles every scope of `table`.
    public init(_ table: CanOpenTable) {
        self.table = table
        func compile(_ scopes: [CanOpenScope]) -> [String: (indices: [Int], rules: RuleSet)] {
            var out: [String: (indices: [Int], rules: RuleSet)] = [:]
            for scope in scopes {
                let indices = scope.rules.filter { table.rules.indices.contains($0) }
                out[scope.name.lowercased()] = (
                    indices,
                    RuleSet(
                        rules: indices.map { table.rules[$0].componentRule },
                        substitutionVariables: scope.substitutionVariables ?? [:])
                )
            }
            return out
        }
        domains = compile(table.domains)
        schemes = compile(table.schemes)
        marker = RuleSet(rules: [DecisionMaking.markerRule(table.fallback)], substitutionVariables: [:])
    }

    /// The decision for `url`, identical to the server's `CanOpen.Check` for this app version.
    public func decide(url: String) -> Decision {
        guard let link = LinkURL(url) else { return .notAssociated }
        if DecisionMaking.isWebScheme(link.scheme) {
            guard let scope = domains[link.host] else { return .notAssociated }
            if marker.firstMatch(link) != nil { return Decision(decision: .openInBrowser, reason: .fallbackMarker) }
            let fallback = { FallbackURL.make(url, policy: table.fallback) }
            guard let hit = scope.rules.firstMatch(link) else {
                return DecisionMaking.decide(verdict: nil, route: nil, supportedSince: nil, fallbackURL: fallback())
            }
            return decision(table.rules[scope.indices[hit]], fallback: fallback)
        }
        guard let scope = schemes[link.scheme] else { return .notAssociated }
        let matchURL = DecisionMaking.schemeMatchURL(link)
        guard let hit = scope.rules.firstMatch(matchURL) else {
            return DecisionMaking.decide(verdict: nil, route: nil, supportedSince: nil, fallbackURL: nil)
        }
        let rule = table.rules[scope.indices[hit]]
        let fallback = rule.webFallback.map {
            FallbackURL.make(
                FallbackURL.expand(template: $0, path: matchURL.path, query: link.query), policy: table.fallback)
        }
        return decision(rule, fallback: { fallback })
    }

    private func decision(_ rule: CanOpenRule, fallback: () -> String?) -> Decision {
        DecisionMaking.decide(
            verdict: rule.verdict, route: rule.route, supportedSince: rule.supportedSince, fallbackURL: fallback())
    }
}
