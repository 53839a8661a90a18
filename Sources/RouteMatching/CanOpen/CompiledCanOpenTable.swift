/// A canOpen table with its rule lists compiled, for deciding many URLs (the Swift client keeps one per
/// cached table).
public struct CompiledCanOpenTable: Sendable {
    /// The table as received.
    public let table: CanOpenTable
    private let domains: [String: Scope]
    private let schemes: [String: Scope]
    package let marker: RuleSet

    /// One host's or scheme's rules: their indices into `table.rules`, and those rules compiled.
    package final class Scope: Sendable {
        let indices: [Int]
        let rules: RuleSet

        init(indices: [Int], rules: RuleSet) {
            self.indices = indices
            self.rules = rules
        }
    }

    /// Compiles every scope of `table`.
    public init(_ table: CanOpenTable) {
        self.table = table
        func compile(_ scopes: [CanOpenScope]) -> [String: Scope] {
            var out: [String: Scope] = [:]
            for scope in scopes {
                let indices = scope.rules.filter { table.rules.indices.contains($0) }
                out[scope.name.lowercased()] = Scope(
                    indices: indices,
                    rules: RuleSet(
                        rules: indices.map { table.rules[$0].componentRule },
                        substitutionVariables: scope.substitutionVariables ?? [:]))
            }
            return out
        }
        domains = compile(table.domains)
        schemes = compile(table.schemes)
        marker = RuleSet(rules: [DecisionFlow.markerRule(table.fallback)], substitutionVariables: [:])
    }

    /// The decision for `url`, identical to the server's `CanOpen.Check` for this app version.
    public func decide(url: String) -> Decision {
        guard let link = LinkURL(url) else { return .notAssociated }
        return DecisionFlow.decide(link, original: url, in: self)
    }
}

extension CompiledCanOpenTable: DecisionRules {
    package func webScope(_ host: String) -> Scope? { domains[host] }

    package func schemeScope(_ scheme: String) -> Scope? { schemes[scheme] }

    package func ruleSet(_ scope: Scope) -> RuleSet { scope.rules }

    /// A table stores each rule's verdict for its version.
    package func matchedRule(_ index: Int, in scope: Scope) -> MatchedRule {
        let rule = table.rules[scope.indices[index]]
        return MatchedRule(
            verdict: rule.verdict, route: rule.route, supportedSince: rule.supportedSince,
            webFallback: rule.webFallback)
    }

    package var fallbackPolicy: FallbackPolicy { table.fallback }
}
