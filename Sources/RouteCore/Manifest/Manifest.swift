/// An app's routes, domains and link settings as a file kept in the app's repository (`routereg.json`), so a
/// release engineer reviews them in a pull request and plans them against the registry from CI.
///
/// It holds what the team decides ahead of a release: the app's identity, its domains and its routes in
/// evaluation order. What is decided on release day (releases, switch-offs, short links) stays operational and
/// is not part of it. `Schema/routereg-manifest.schema.json` describes the same shape for editors.
public struct Manifest: Sendable, Hashable, Codable {
    /// Where editors find the schema (`$schema`: a path or URL of `routereg-manifest.schema.json`); the
    /// registry ignores it.
    public var schema: String?
    /// The app, as `Apps.Get` shows it.
    public var app: App
    /// The domains that serve the app, by host.
    public var domains: [ManifestDomain]
    /// The app's routes in evaluation order: the first match decides.
    public var routes: [ManifestRoute]

    public init(
        schema: String? = nil, app: App, domains: [ManifestDomain] = [],
        routes: [ManifestRoute] = []
    ) {
        self.schema = schema
        self.app = app
        self.domains = domains
        self.routes = routes
    }

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case app, domains, routes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schema = try c.decodeIfPresent(String.self, forKey: .schema)
        app = try c.decode(App.self, forKey: .app)
        domains = try c.decodeIfPresent([ManifestDomain].self, forKey: .domains) ?? []
        routes = try c.decodeIfPresent([ManifestRoute].self, forKey: .routes) ?? []
    }
}

/// A domain of the manifest's app: `Domain` without its app list, which other apps' manifests share (the
/// manifest speaks for its own app only).
public struct ManifestDomain: Sendable, Hashable, Codable {
    public var host: String
    /// Serve exactly the rules of that host.
    public var aliasOf: String?
    /// Matching defaults for the whole domain.
    public var defaults: MatchDefaults?
    /// `$(name)` substitution variables.
    public var substitutionVariables: [String: [String]]?
    /// Also emit the legacy `paths` form.
    public var legacyPaths: Bool?
    /// Short links on or off.
    public var links: Bool?
    /// Show a long link's own social preview.
    public var longLinkPreviews: Bool?

    public init(
        host: String, aliasOf: String? = nil, defaults: MatchDefaults? = nil,
        substitutionVariables: [String: [String]]? = nil, legacyPaths: Bool? = nil, links: Bool? = nil,
        longLinkPreviews: Bool? = nil
    ) {
        self.host = host
        self.aliasOf = aliasOf
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
        self.legacyPaths = legacyPaths
        self.links = links
        self.longLinkPreviews = longLinkPreviews
    }

    /// The manifest's view of a registry domain.
    public init(_ domain: Domain) {
        self.init(
            host: domain.host, aliasOf: domain.aliasOf, defaults: domain.defaults,
            substitutionVariables: domain.substitutionVariables, legacyPaths: domain.legacyPaths,
            links: domain.links, longLinkPreviews: domain.longLinkPreviews)
    }
}

/// A route of the manifest: `Route` without its switch-offs, which are decided on release day.
public struct ManifestRoute: Sendable, Hashable, Codable {
    public var id: String
    public var pattern: URLPattern
    public var action: RouteAction
    /// The versions that handle it, per platform (`since`, optional `until`).
    public var platforms: [Platform: VersionRange]
    /// Hosts it applies to; empty: every domain of the app.
    public var domains: [String]
    /// For a custom-scheme route, the web URL to fall back to.
    public var webFallback: String?
    /// Why the route exists, for people.
    public var comment: String?

    public init(
        id: String, pattern: URLPattern, action: RouteAction = .open, platforms: [Platform: VersionRange] = [:],
        domains: [String] = [], webFallback: String? = nil, comment: String? = nil
    ) {
        self.id = id
        self.pattern = pattern
        self.action = action
        self.platforms = platforms
        self.domains = domains
        self.webFallback = webFallback
        self.comment = comment
    }

    /// The manifest's view of a registry route (its switch-offs left out).
    public init(_ route: Route) {
        self.init(
            id: route.id, pattern: route.pattern, action: route.action, platforms: route.platforms,
            domains: route.domains, webFallback: route.webFallback, comment: route.comment)
    }

    /// The registry route this manifest route describes, with the switch-offs it keeps (a manifest never
    /// revives a version switched off on release day).
    public func route(switchedOff: [Platform: [SwitchedOff]] = [:]) -> Route {
        Route(
            id: id, pattern: pattern, action: action, platforms: platforms, switchedOff: switchedOff,
            domains: domains, webFallback: webFallback, comment: comment)
    }

    enum CodingKeys: String, CodingKey {
        case id, pattern, action, platforms, domains, webFallback, comment
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        pattern = try c.decode(URLPattern.self, forKey: .pattern)
        action = try c.decodeIfPresent(RouteAction.self, forKey: .action) ?? .open
        platforms = try c.decodeIfPresent([Platform: VersionRange].self, forKey: .platforms) ?? [:]
        domains = try c.decodeIfPresent([String].self, forKey: .domains) ?? []
        webFallback = try c.decodeIfPresent(String.self, forKey: .webFallback)
        comment = try c.decodeIfPresent(String.self, forKey: .comment)
    }
}
