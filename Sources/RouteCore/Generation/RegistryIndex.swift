/// Lookups over a `Registry` that every generator and the decision engine share, so that "which rules
/// apply to this host" has exactly one answer.
public struct RegistryIndex: Sendable {
    let registry: Registry
    let apps: [String: App]
    /// Domains by lower-cased host.
    public let domains: [String: Domain]

    public init(_ registry: Registry) {
        self.registry = registry
        var apps: [String: App] = [:]
        for app in registry.apps { apps[app.id] = app }
        self.apps = apps
        var domains: [String: Domain] = [:]
        for domain in registry.domains { domains[domain.host.lowercased()] = domain }
        self.domains = domains
    }

    /// The domain whose rules `host` serves: the domain itself, or the end of its alias chain.
    /// A broken or cyclic chain resolves to nil (validation refuses those on write).
    public func target(of host: String) -> Domain? {
        var current = domains[host.lowercased()]
        var hops = 0
        while let domain = current, let next = domain.aliasOf {
            hops += 1
            if hops > 16 { return nil }
            current = domains[next.lowercased()]
        }
        return current
    }

    /// Every host (aliases included) whose rules come from a domain that lists `app`, sorted.
    func hosts(of app: String) -> [String] {
        registry.domains.compactMap { domain in
            target(of: domain.host)?.apps.contains(app) == true ? domain.host.lowercased() : nil
        }.sorted()
    }

    /// The app's web routes that apply on `target` (already alias-resolved), in evaluation order: the app's
    /// own array when they all do, so large apps are not copied route by route on every generation.
    func webRoutes(app: String, target: Domain) -> [Route] {
        let host = target.host.lowercased()
        let routes = registry.routes[app] ?? []
        let applies = { (route: Route) in
            route.pattern.scheme == nil
                && (route.domains.isEmpty || route.domains.contains { Domain.sameHost($0, host) })
        }
        return routes.allSatisfy(applies) ? routes : routes.filter(applies)
    }

    /// The app's routes for the custom scheme `scheme`, in evaluation order.
    func schemeRoutes(app: String, scheme: String) -> [Route] {
        (registry.routes[app] ?? []).filter { $0.pattern.scheme?.lowercased() == scheme.lowercased() }
    }

    /// Rule > app > domain > Apple's default (true).
    static func caseSensitive(_ route: Route, app: App, domain: Domain?) -> Bool {
        route.pattern.caseSensitive ?? app.defaults?.caseSensitive ?? domain?.defaults?.caseSensitive ?? true
    }

    /// Rule > app > domain > Apple's default (true).
    static func percentEncoded(_ route: Route, app: App, domain: Domain?) -> Bool {
        route.pattern.percentEncoded ?? app.defaults?.percentEncoded ?? domain?.defaults?.percentEncoded ?? true
    }
}

/// Which of an app's rules a generated document carries for a set of live versions.
enum RuleEmission: Equatable {
    /// The rule appears as is (an `open` rule some live version handles).
    case open
    /// The rule appears as an exclusion: an `exclude` route, or an `open` route no live version handles
    /// that must still stop later rules from claiming its URLs (first match wins).
    case exclude
    /// The rule is left out: nothing after it is claimed, so it cannot change any decision.
    case omitted

    /// Decides emission for `routes` in order: an open rule appears while a live version handles it; any
    /// other rule appears (as an exclusion) only when an emitted open rule follows it. `live`: ascending.
    static func plan(_ routes: [Route], platform: Platform, live: [Version]) -> [RuleEmission] {
        var plan = [RuleEmission](repeating: .omitted, count: routes.count)
        var openFollows = false
        // Read in place: copying each `Route` out would retain and release all its fields.
        routes.withUnsafeBufferPointer { routes in
            for index in routes.indices.reversed() {
                if routes[index].handlesAny(platform, ofAscending: live) {
                    plan[index] = .open
                    openFollows = true
                } else if openFollows {
                    plan[index] = .exclude
                }
            }
        }
        return plan
    }
}
