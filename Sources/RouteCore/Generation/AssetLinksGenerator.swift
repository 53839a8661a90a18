/// Builds `assetlinks.json` for one host: a statement per app with an Android identity, carrying the
/// Android 15 `dynamic_app_link_components` planned from the live Android versions.
struct AssetLinksGenerator {
    let index: RegistryIndex

    static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// The statements for `host`, with lint for rules Android cannot express; nil for an unknown host.
    func document(host: String) -> (statements: [AssetLinksStatement], lint: [LintFinding])? {
        guard let target = index.target(of: host) else { return nil }
        var statements: [AssetLinksStatement] = []
        var lint: [LintFinding] = []
        for appID in target.apps {
            guard let app = index.apps[appID], let android = app.android else { continue }
            let (components, findings) = self.components(app: app, target: target)
            lint += findings
            statements.append(
                AssetLinksStatement(
                    relation: [AssetLinksGenerator.handleAllURLs],
                    target: .init(
                        namespace: "android_app", packageName: android.packageName,
                        sha256CertFingerprints: android.sha256CertFingerprints),
                    relationExtensions: components.isEmpty
                        ? nil
                        : [AssetLinksGenerator.handleAllURLs: .init(dynamicAppLinkComponents: components)]))
        }
        return (statements, lint)
    }

    func components(app: App, target: Domain) -> ([AssetLinksStatement.Component], [LintFinding]) {
        let routes = index.webRoutes(app: app.id, target: target)
        let live = index.registry.liveVersions(app: app.id, platform: .android)
        let plan = RuleEmission.plan(routes, platform: .android, live: live)
        guard plan.contains(.open) else { return ([], []) }
        var lint: [LintFinding] = []
        var components = [
            AssetLinksStatement.Component(
                query: [app.fallback.queryItem: "?*"], exclude: true, comments: AASAGenerator.markerComment)
        ]
        for (route, emission) in zip(routes, plan) where emission != .omitted {
            let (component, problems) = translate(route, app: app, target: target, exclude: emission == .exclude)
            for problem in problems {
                lint.append(
                    LintFinding(
                        severity: .warning, code: LintCode.androidUnexpressible,
                        message: "route \(route.id) of app \(app.id) on \(target.host): \(problem)", route: route.id))
            }
            if let component { components.append(component) }
        }
        return (components, lint)
    }

    /// Translates a route to an Android rule, or nil when it cannot be, with what is lost either way.
    func translate(_ route: Route, app: App, target: Domain, exclude: Bool) -> (
        AssetLinksStatement.Component?, [String]
    ) {
        var problems: [String] = []
        let pattern = route.pattern
        var query: [String: String]?
        switch pattern.query {
        case nil: query = nil
        case .items(let items): query = items
        case .string(let text):
            guard let items = AssetLinksGenerator.queryItems(text) else {
                return (
                    nil, ["left out: its query pattern \"\(text)\" cannot be written as the dictionary Android needs"]
                )
            }
            query = items
            problems.append("its query pattern \"\(text)\" becomes a dictionary, which also matches extra query items")
        }
        let texts = [pattern.path, pattern.fragment].compactMap { $0 } + (query.map { Array($0.values) } ?? [])
        if texts.contains(where: { $0.contains("$(") }) {
            return (nil, ["left out: Android has no substitution variables"])
        }
        if !RegistryIndex.caseSensitive(route, app: app, domain: target) {
            problems.append("Android matches case-sensitively; case-insensitive matching is lost")
        }
        if !RegistryIndex.percentEncoded(route, app: app, domain: target) {
            problems.append("Android matches the URL as written; percent-decoded matching is lost")
        }
        if texts.contains(where: AssetLinksGenerator.hasLazyWildcard) {
            problems.append(
                "Android's `*` is lazy (stops at the first occurrence of the text after it), so "
                    + "it may match fewer URLs than iOS")
        }
        let component = AssetLinksStatement.Component(
            path: pattern.path, query: query, fragment: pattern.fragment, exclude: exclude ? true : nil,
            comments: AASAGenerator.comment(route: route.id))
        return (component, problems)
    }

    /// `a=1&b=*` as a dictionary; nil when a part has no `=`, a name has wildcards, or a name repeats.
    static func queryItems(_ text: String) -> [String: String]? {
        var items: [String: String] = [:]
        for part in text.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = part.firstIndex(of: "=") else { return nil }
            let name = String(part[..<equals])
            if name.isEmpty || name.contains(where: { $0 == "*" || $0 == "?" }) || items[name] != nil { return nil }
            items[name] = String(part[part.index(after: equals)...])
        }
        return items
    }

    /// True when a `*` is followed by literal text, where a lazy `*` can decide differently.
    static func hasLazyWildcard(_ pattern: String) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return false }
        return pattern[pattern.index(after: star)...].contains { $0 != "*" }
    }
}
