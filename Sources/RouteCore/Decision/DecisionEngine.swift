/// Decides (app, platform, version, URL) per ARCHITECTURE.md "Decisions", from rule lists compiled once per registry.
///
/// Build one per `Registry` snapshot and reuse it: every host's rule list is compiled into a `RuleSet`
/// when the engine is made, so a decision costs one compiled first-match lookup.
public struct DecisionEngine: Sendable {
    /// One compiled rule list: the routes in order and their matcher rules.
    struct Scope: Sendable {
        let routes: [Route]
        let rules: RuleSet
    }

    /// Per app: the rule list of each host the app answers on (aliases share their target's list).
    private let webScopes: [String: [String: Scope]]
    /// Per app: the rule list of each custom scheme.
    private let schemeScopes: [String: [String: Scope]]
    private let apps: [String: App]
    private let markers: [String: RuleSet]

    /// Compiles every rule list of `registry`, taking the rules `previous` (the engine of an earlier state)
    /// already compiled for the same app and host or scheme.
    public init(registry: Registry, reusing previous: DecisionEngine? = nil) {
        let index = RegistryIndex(registry)
        var webScopes: [String: [String: Scope]] = [:]
        var schemeScopes: [String: [String: Scope]] = [:]
        var markers: [String: RuleSet] = [:]
        for app in registry.apps {
            var byTarget: [String: Scope] = [:]
            var hosts: [String: Scope] = [:]
            for host in index.hosts(of: app.id) {
                guard let target = index.target(of: host) else { continue }
                let key = target.host.lowercased()
                if byTarget[key] == nil {
                    let routes = index.webRoutes(app: app.id, target: target)
                    byTarget[key] = Scope(
                        routes: routes,
                        rules: RuleSet(
                            rules: routes.map { RouteRules.componentRule($0, app: app, domain: target) },
                            substitutionVariables: target.substitutionVariables ?? [:],
                            reusing: previous?.webScopes[app.id]?[key]?.rules))
                }
                hosts[host] = byTarget[key]
            }
            webScopes[app.id] = hosts
            var schemes: [String: Scope] = [:]
            for scheme in app.schemes {
                let routes = index.schemeRoutes(app: app.id, scheme: scheme)
                schemes[scheme.lowercased()] = Scope(
                    routes: routes,
                    rules: RuleSet(
                        rules: routes.map { RouteRules.componentRule($0, app: app, domain: nil) },
                        substitutionVariables: [:], reusing: previous?.schemeScopes[app.id]?[scheme.lowercased()]?.rules
                    ))
            }
            schemeScopes[app.id] = schemes
            markers[app.id] = RuleSet(rules: [DecisionMaking.markerRule(app.fallback)], substitutionVariables: [:])
        }
        self.webScopes = webScopes
        self.schemeScopes = schemeScopes
        self.markers = markers
        self.apps = Dictionary(registry.apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The decision for `url` (text); an unparsable URL is `not_associated`.
    public func decide(app: String, platform: Platform, version: Version, url: String) -> Decision {
        guard let link = LinkURL(url) else { return .notAssociated }
        return decide(app: app, platform: platform, version: version, url: link, original: url)
    }

    /// The decision for a parsed URL; `original` is the text fallback URLs are built from.
    ///
    /// Web links are `not_associated` on a platform the app has no side on (no app IDs, no package), as the
    /// OS never hands them to it there; custom schemes are declared by the app itself and still decide.
    public func decide(
        app appID: String, platform: Platform, version: Version, url: LinkURL, original: String? = nil
    ) -> Decision {
        guard let app = apps[appID] else { return .notAssociated }
        let text = original ?? url.description
        if DecisionMaking.isWebScheme(url.scheme) {
            guard app.hasSide(on: platform), let scope = webScopes[appID]?[url.host] else { return .notAssociated }
            if markers[appID]?.firstMatch(url) != nil {
                return Decision(decision: .openInBrowser, reason: .fallbackMarker)
            }
            let fallback = { FallbackURL.make(text, policy: app.fallback) }
            guard let index = scope.rules.firstMatch(url) else {
                return DecisionMaking.decide(verdict: nil, route: nil, supportedSince: nil, fallbackURL: fallback())
            }
            return decision(scope.routes[index], platform: platform, version: version, fallback: fallback)
        }
        guard let scope = schemeScopes[appID]?[url.scheme] else { return .notAssociated }
        let matchURL = DecisionMaking.schemeMatchURL(url)
        guard let index = scope.rules.firstMatch(matchURL) else {
            return DecisionMaking.decide(verdict: nil, route: nil, supportedSince: nil, fallbackURL: nil)
        }
        let route = scope.routes[index]
        let fallback = route.webFallback.map {
            FallbackURL.make(
                FallbackURL.expand(template: $0, path: matchURL.path, query: url.query), policy: app.fallback)
        }
        return decision(route, platform: platform, version: version, fallback: { fallback })
    }

    private func decision(_ route: Route, platform: Platform, version: Version, fallback: () -> String?) -> Decision {
        DecisionMaking.decide(
            verdict: RuleVerdict(route, platform: platform, version: version), route: route.id,
            supportedSince: RuleVerdict.supportedSince(route, platform: platform, version: version),
            fallbackURL: fallback())
    }
}

/// Routes as matcher rules, with defaults resolved rule > app > domain.
enum RouteRules {
    static func componentRule(_ route: Route, app: App, domain: Domain?, exclude: Bool? = nil) -> ComponentRule {
        ComponentRule(
            path: route.pattern.path, query: route.pattern.query?.rule, fragment: route.pattern.fragment,
            exclude: exclude ?? (route.action == .exclude),
            caseSensitive: RegistryIndex.caseSensitive(route, app: app, domain: domain),
            percentEncoded: RegistryIndex.percentEncoded(route, app: app, domain: domain))
    }
}
