/// Decides (app, platform, version, URL) per ARCHITECTURE.md "Decisions", from rule lists compiled once per registry.
///
/// Build one per `Registry` snapshot and reuse it: every host's rule list is compiled into a `RuleSet`
/// when the engine is made, so a decision costs one compiled first-match lookup.
public struct DecisionEngine: Sendable {
    /// One compiled rule list: the routes in order and their matcher rules. A class, like `AppRules`: a
    /// decision copies both (through the decision flow's protocol), and a reference is one count to write
    /// where the values were a dozen, on lines every request thread writes.
    final class Scope: Sendable {
        /// The routes in order, each behind a reference for the same reason: a decision reads the one that
        /// matched, and copying a `Route` out of an array retained each of its fields.
        let routes: [RouteReference]
        let rules: RuleSet

        init(routes: [Route], rules: RuleSet) {
            self.routes = routes.map(RouteReference.init)
            self.rules = rules
        }
    }

    final class RouteReference: Sendable {
        let route: Route

        init(_ route: Route) { self.route = route }

        /// What a rule of the route that matched means for `version` on `platform`. The verdicts borrow the
        /// route from here; taken out of an array, it was copied first, retaining each of its fields.
        func matchedRule(platform: Platform, version: Version) -> MatchedRule {
            MatchedRule(
                verdict: RuleVerdict(route, platform: platform, version: version), route: route.id,
                supportedSince: RuleVerdict.supportedSince(route, platform: platform, version: version),
                webFallback: route.webFallback)
        }
    }

    /// What one app's rule lists are compiled from: the app, its routes, and each of its hosts with the
    /// domain its rules come from. Equal inputs compile to equal rules, and a registry derived from another
    /// shares the arrays of every app a write did not touch, so comparing them costs next to nothing.
    struct AppInputs: Sendable, Equatable {
        let app: App
        let routes: [Route]
        let targets: [String: Domain]
    }

    /// One app's compiled rule lists.
    final class AppRules: Sendable {
        let inputs: AppInputs
        var app: App { inputs.app }
        /// The rule list of each host the app answers on (aliases share their target's list).
        let web: [String: Scope]
        /// The rule list of each custom scheme.
        let schemes: [String: Scope]
        /// Recognises the app's fallback marker.
        let marker: RuleSet

        init(inputs: AppInputs, web: [String: Scope], schemes: [String: Scope], marker: RuleSet) {
            self.inputs = inputs
            self.web = web
            self.schemes = schemes
            self.marker = marker
        }
    }

    private let apps: [String: AppRules]

    /// Compiles every rule list of `registry`, taking the rules `previous` (the engine of an earlier state)
    /// already compiled for the same app and host or scheme.
    public init(registry: Registry, reusing previous: DecisionEngine? = nil) {
        let index = RegistryIndex(registry)
        // Every app's hosts in one pass over the domains (asking per app cost apps × domains on every write).
        var targetsByApp: [String: [String: Domain]] = [:]
        for (host, _) in index.domains {
            guard let target = index.target(of: host) else { continue }
            for app in target.apps { targetsByApp[app, default: [:]][host] = target }
        }
        var apps: [String: AppRules] = [:]
        for app in registry.apps where apps[app.id] == nil {
            let reusable = previous?.apps[app.id]
            let targets = targetsByApp[app.id] ?? [:]
            let inputs = AppInputs(app: app, routes: registry.routes[app.id] ?? [], targets: targets)
            // A write touches one app: every other app keeps its compiled rules as they are.
            if let reusable, reusable.inputs == inputs {
                // Kept with this registry's arrays: after a full load gave every array new storage, one
                // element-wise comparison per app, then O(1) again for the registries derived from this one.
                apps[app.id] = AppRules(
                    inputs: inputs, web: reusable.web, schemes: reusable.schemes, marker: reusable.marker)
                continue
            }
            var byTarget: [String: Scope] = [:]
            var hosts: [String: Scope] = [:]
            for (host, target) in targets {
                let key = target.host.lowercased()
                if byTarget[key] == nil {
                    let routes = index.webRoutes(app: app.id, target: target)
                    byTarget[key] = Scope(
                        routes: routes,
                        rules: RuleSet(
                            rules: routes.map { RouteRules.componentRule($0, app: app, domain: target) },
                            substitutionVariables: target.substitutionVariables ?? [:],
                            reusing: reusable?.web[key]?.rules))
                }
                hosts[host] = byTarget[key]
            }
            var schemes: [String: Scope] = [:]
            for scheme in app.schemes {
                let routes = index.schemeRoutes(app: app.id, scheme: scheme)
                schemes[scheme.lowercased()] = Scope(
                    routes: routes,
                    rules: RuleSet(
                        rules: routes.map { RouteRules.componentRule($0, app: app, domain: nil) },
                        substitutionVariables: [:], reusing: reusable?.schemes[scheme.lowercased()]?.rules))
            }
            apps[app.id] = AppRules(
                inputs: inputs, web: hosts, schemes: schemes,
                marker: RuleSet(rules: [DecisionFlow.markerRule(app.fallback)], substitutionVariables: [:]))
        }
        self.apps = apps
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
        guard let rules = apps[appID] else { return .notAssociated }
        return DecisionFlow.decide(
            url, original: original ?? url.description,
            in: VersionRules(rules: rules, platform: platform, version: version))
    }
}

/// One app version's view of the engine's rule lists: the verdicts come from the routes.
private struct VersionRules: DecisionRules {
    let rules: DecisionEngine.AppRules
    let platform: Platform
    let version: Version

    func webScope(_ host: String) -> DecisionEngine.Scope? {
        rules.app.hasSide(on: platform) ? rules.web[host] : nil
    }

    func schemeScope(_ scheme: String) -> DecisionEngine.Scope? { rules.schemes[scheme] }

    func ruleSet(_ scope: DecisionEngine.Scope) -> RuleSet { scope.rules }

    func matchedRule(_ index: Int, in scope: DecisionEngine.Scope) -> MatchedRule {
        scope.routes[index].matchedRule(platform: platform, version: version)
    }

    var marker: RuleSet { rules.marker }

    var fallbackPolicy: FallbackPolicy { rules.app.fallback }
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
