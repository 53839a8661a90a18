/// Builds the `apple-app-site-association` document of one host from the registry.
///
/// Per app with iOS app IDs: the fallback-marker exclusion first, then the app's rules for the host in
/// order, as planned by `RuleEmission` from the live iOS versions.
struct AASAGenerator {
    let index: RegistryIndex

    /// The comment naming the marker exclusion.
    static let markerComment = "fallback marker"

    /// The comment a rule carries: it names the route so revisions can be diffed rule by rule.
    static func comment(route: String) -> String { "route \(route)" }

    /// The marker exclusion: a dictionary query needs `?*` because a missing item counts as empty and
    /// would otherwise exclude every URL.
    static func markerComponent(_ policy: FallbackPolicy) -> AASAComponent {
        AASAComponent(query: .items([policy.queryItem: "?*"]), exclude: true, comment: markerComment)
    }

    /// The document for `host`, and lint about its legacy form; nil when the host is unknown.
    func document(host: String) -> (file: AASAFile, lint: [LintFinding])? {
        guard let target = index.target(of: host) else { return nil }
        let legacy = target.legacyPaths ?? false
        var details: [AASADetail] = []
        var legacyOnly: [AASADetail] = []
        var lint: [LintFinding] = []
        var webcredentials: [String] = []
        var appclips: [String] = []
        for appID in target.apps {
            guard let app = index.apps[appID], let ios = app.ios, !ios.appIds.isEmpty else { continue }
            if ios.webcredentials == true { webcredentials += ios.appIds }
            appclips += ios.appClips ?? []
            let components = self.components(app: app, target: target)
            var detail = AASADetail(appIDs: ios.appIds, components: components)
            if legacy {
                let (paths, findings) = legacyPaths(components, app: app, target: target)
                lint += findings
                if ios.appIds.count == 1 {
                    detail.appID = ios.appIds[0]
                    detail.paths = paths
                } else {
                    legacyOnly += ios.appIds.map { AASADetail(appID: $0, paths: paths) }
                }
            }
            details.append(detail)
        }
        if legacy && !details.isEmpty {
            lint.append(
                LintFinding(
                    severity: .warning, code: LintCode.legacyUnreachable,
                    message: "the fallback marker exclusion needs a query rule, which legacy paths cannot express: "
                        + "iOS 12 and earlier may reopen the app from a fallback URL"))
        }
        let applinks = AASAAppLinks(
            apps: legacy ? [] : nil, details: details + legacyOnly, defaults: target.defaults,
            substitutionVariables: target.substitutionVariables)
        let file = AASAFile(
            applinks: applinks,
            webcredentials: webcredentials.isEmpty ? nil : AASAAppList(apps: webcredentials),
            appclips: appclips.isEmpty ? nil : AASAAppList(apps: appclips))
        return (file, lint)
    }

    /// The app's `components` for the host: empty when no live version opens anything there.
    func components(app: App, target: Domain) -> [AASAComponent] {
        let routes = index.webRoutes(app: app.id, target: target)
        let plan = RuleEmission.plan(
            routes, platform: .ios, live: index.registry.liveVersions(app: app.id, platform: .ios))
        guard plan.contains(.open) else { return [] }
        var components = [AASAGenerator.markerComponent(app.fallback)]
        for (route, emission) in zip(routes, plan) where emission != .omitted {
            components.append(component(route, app: app, exclude: emission == .exclude))
        }
        return components
    }

    /// A route as an AASA rule; app defaults are written into the rule since AASA has no per-app defaults.
    func component(_ route: Route, app: App, exclude: Bool) -> AASAComponent {
        AASAComponent(
            path: route.pattern.path, query: route.pattern.query, fragment: route.pattern.fragment,
            exclude: exclude ? true : nil,
            caseSensitive: route.pattern.caseSensitive ?? app.defaults?.caseSensitive,
            percentEncoded: route.pattern.percentEncoded ?? app.defaults?.percentEncoded,
            comment: AASAGenerator.comment(route: route.id))
    }

    /// The legacy `paths` list for the same rules, and a finding for each rule it cannot express.
    func legacyPaths(_ components: [AASAComponent], app: App, target: Domain) -> ([String], [LintFinding]) {
        var paths: [String] = []
        var lint: [LintFinding] = []
        for component in components where component.comment != AASAGenerator.markerComment {
            let routeID = component.comment.map { String($0.dropFirst("route ".count)) }
            let caseSensitive = component.caseSensitive ?? target.defaults?.caseSensitive ?? true
            let percentEncoded = component.percentEncoded ?? target.defaults?.percentEncoded ?? true
            var reasons: [String] = []
            if component.query != nil { reasons.append("a query pattern") }
            if component.fragment != nil { reasons.append("a fragment pattern") }
            if !caseSensitive { reasons.append("case-insensitive matching") }
            if !percentEncoded { reasons.append("percent-decoded matching") }
            if component.path?.contains("$(") == true { reasons.append("substitution variables") }
            if !reasons.isEmpty {
                lint.append(
                    LintFinding(
                        severity: .warning, code: LintCode.legacyUnreachable,
                        message: "route \(routeID ?? "?") of app \(app.id) is left out of the legacy paths on "
                            + "\(target.host): they cannot express \(reasons.joined(separator: ", "))",
                        route: routeID))
                continue
            }
            let path = component.path ?? "*"
            paths.append(component.isExclude ? "NOT " + path : path)
        }
        return (paths, lint)
    }
}
