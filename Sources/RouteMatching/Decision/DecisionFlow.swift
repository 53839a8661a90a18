/// One app version's rules, as the decision flow reads them. The decision engine provides them from the
/// registry's routes, a compiled canOpen table from the table's rules; `DecisionFlow.decide` walks both the
/// same way, so the server's `CanOpen.Check` and an app deciding offline cannot drift apart.
package protocol DecisionRules {
    /// A compiled rule list and whatever its source needs to tell what its rules mean. A class: the flow is
    /// generic across modules (unspecialized for the engine's rules), and an optional reference needs no
    /// runtime metadata lookup, where an optional of an unknown type asked for one on every decision.
    associatedtype Scope: AnyObject

    /// The rule list of a web host, nil when the app (on this platform) does not answer on it.
    func webScope(_ host: String) -> Scope?
    /// The rule list of a custom scheme, nil when it is not one of the app's.
    func schemeScope(_ scheme: String) -> Scope?
    /// The compiled rules of `scope`, in order.
    func ruleSet(_ scope: Scope) -> RuleSet
    /// What the rule at `index` of `scope` means for this version.
    func matchedRule(_ index: Int, in scope: Scope) -> MatchedRule
    /// Recognises the fallback marker, the rule every generated AASA excludes first.
    var marker: RuleSet { get }
    /// How fallback URLs are made.
    var fallbackPolicy: FallbackPolicy { get }
}

/// The first rule that matched a URL, as a decision needs it.
package struct MatchedRule {
    /// What the match means for this version.
    package var verdict: RuleVerdict
    /// The route the rule comes from.
    package var route: String
    /// The first version that handles the route, when this version is below it.
    package var supportedSince: String?
    /// For a custom-scheme route: the web URL template to fall back to (`{path}`, `{query}`).
    package var webFallback: String?

    package init(verdict: RuleVerdict, route: String, supportedSince: String?, webFallback: String?) {
        self.verdict = verdict
        self.route = route
        self.supportedSince = supportedSince
        self.webFallback = webFallback
    }
}

/// The decision procedure (ARCHITECTURE.md "Decisions") over any `DecisionRules`: the one place that says
/// how web links and custom schemes are looked up, when the fallback marker wins, and what each verdict
/// decides.
package enum DecisionFlow {
    /// The decision for `url`; `original` is the text fallback URLs are built from.
    package static func decide(_ url: LinkURL, original: String, in rules: some DecisionRules) -> Decision {
        if LinkURL.isWebScheme(url.scheme) {
            guard let scope = rules.webScope(url.host) else { return .notAssociated }
            if rules.marker.firstMatch(url) != nil {
                return Decision(decision: .openInBrowser, reason: .fallbackMarker)
            }
            let rule = rules.ruleSet(scope).firstMatch(url).map { rules.matchedRule($0, in: scope) }
            return decide(rule, fallbackURL: FallbackURL.make(original, policy: rules.fallbackPolicy))
        }
        guard let scope = rules.schemeScope(url.scheme) else { return .notAssociated }
        let matchURL = schemeMatchURL(url)
        guard let index = rules.ruleSet(scope).firstMatch(matchURL) else { return decide(nil, fallbackURL: nil) }
        let rule = rules.matchedRule(index, in: scope)
        return decide(
            rule,
            fallbackURL: rule.webFallback.map {
                FallbackURL.make(
                    FallbackURL.expand(template: $0, path: matchURL.path, query: url.query),
                    policy: rules.fallbackPolicy)
            })
    }

    /// The decision for a URL whose first matching rule was `rule` (nil: no rule matched). `fallbackURL` is
    /// the browser URL to use when the decision is to fall back; it is evaluated only for browser decisions,
    /// since building it is most of a decision's cost and most decisions open the app.
    static func decide(_ rule: MatchedRule?, fallbackURL: @autoclosure () -> String?) -> Decision {
        guard let rule else {
            return Decision(decision: .openInBrowser, reason: .noRoute, fallbackUrl: fallbackURL())
        }
        switch rule.verdict {
        case .open:
            return Decision(decision: .openInApp, reason: .route, route: rule.route)
        case .exclude:
            return Decision(decision: .openInBrowser, reason: .excluded, route: rule.route, fallbackUrl: fallbackURL())
        case .switchedOff:
            return Decision(
                decision: .openInBrowser, reason: .switchedOff, route: rule.route, fallbackUrl: fallbackURL())
        case .unsupported:
            return Decision(
                decision: .openInBrowser, reason: .unsupportedVersion, route: rule.route, fallbackUrl: fallbackURL(),
                supportedSince: rule.supportedSince)
        }
    }

    /// The URL matched for a custom-scheme link: iOS reports `badoo://offer/1` with host `offer`, which
    /// RouteRegistry treats as the first path segment, so a scheme route's path is `/offer/*`.
    static func schemeMatchURL(_ url: LinkURL) -> LinkURL {
        let path = url.host.isEmpty ? url.path : "/" + url.host + url.path
        return LinkURL(scheme: url.scheme, host: "", path: path, query: url.query, fragment: url.fragment)
    }

    /// The matcher rule that recognises the fallback marker, the same rule the AASA excludes first.
    package static func markerRule(_ policy: FallbackPolicy) -> ComponentRule {
        ComponentRule(query: .items([policy.queryItem: "?*"]), exclude: true)
    }
}
