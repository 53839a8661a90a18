/// Builds canOpen tables from a registry, with the same host and rule resolution as `DecisionEngine`.
struct CanOpenTableBuilder {
    let index: RegistryIndex

    /// The table of `app` at `version` on `platform`; nil for an unknown app.
    func table(app appID: String, platform: Platform, version: Version) -> CanOpenTable? {
        guard let app = index.apps[appID] else { return nil }
        var rules: [CanOpenRule] = []
        var positions: [CanOpenRule: Int] = [:]
        func indices(_ routes: [Route], domain: Domain?) -> [Int] {
            routes.map { route in
                let rule = CanOpenRule(
                    route: route.id, path: route.pattern.path, query: route.pattern.query,
                    fragment: route.pattern.fragment,
                    caseSensitive: RegistryIndex.caseSensitive(route, app: app, domain: domain),
                    percentEncoded: RegistryIndex.percentEncoded(route, app: app, domain: domain),
                    action: route.action, verdict: RuleVerdict(route, platform: platform, version: version),
                    supportedSince: RuleVerdict.supportedSince(route, platform: platform, version: version),
                    webFallback: route.webFallback)
                if let position = positions[rule] { return position }
                positions[rule] = rules.count
                rules.append(rule)
                return rules.count - 1
            }
        }
        var domains: [CanOpenScope] = []
        // No side on the platform: no web link reaches the app there (see `DecisionEngine.decide`).
        for host in index.hosts(of: appID) where app.hasSide(on: platform) {
            guard let target = index.target(of: host) else { continue }
            domains.append(
                CanOpenScope(
                    name: host, rules: indices(index.webRoutes(app: appID, target: target), domain: target),
                    substitutionVariables: target.substitutionVariables,
                    links: target.isLinkDomain ? true : nil))
        }
        let schemes = app.schemes.map { scheme in
            CanOpenScope(
                name: scheme.lowercased(), rules: indices(index.schemeRoutes(app: appID, scheme: scheme), domain: nil))
        }
        return CanOpenTable(
            app: appID, platform: platform, version: version, rules: rules, domains: domains, schemes: schemes,
            fallback: app.fallback)
    }
}
