/// An ordered rule of an app: a URL pattern, what to do with a match, and which versions handle it.
/// Resource name: `apps/{app}/routes/{id}`. An app's routes are evaluated in order; the first match decides.
public struct Route: Sendable, Hashable, Codable {
    /// Lower-case identifier, unique within the app, `[a-z][a-z0-9-]{0,62}`.
    public var id: String
    /// What URLs the route matches.
    public var pattern: URLPattern
    /// `open` in the app, or `exclude` (always the web).
    public var action: RouteAction
    /// The versions that handle the route, per platform; a platform absent here has no version handling it.
    /// Empty for `exclude` routes.
    public var platforms: [Platform: VersionRange]
    /// Versions where the route is switched off (kill switch), per platform.
    public var switchedOff: [Platform: [SwitchedOff]]
    /// Hosts the route applies to; empty means every domain of the app.
    public var domains: [String]
    /// For a custom-scheme route, the web URL to fall back to; `{path}` and `{query}` are substituted.
    public var webFallback: String?
    /// Why the route exists, for people.
    public var comment: String?

    public init(
        id: String, pattern: URLPattern, action: RouteAction = .open, platforms: [Platform: VersionRange] = [:],
        switchedOff: [Platform: [SwitchedOff]] = [:], domains: [String] = [], webFallback: String? = nil,
        comment: String? = nil
    ) {
        self.id = id
        self.pattern = pattern
        self.action = action
        self.platforms = platforms
        self.switchedOff = switchedOff
        self.domains = domains
        self.webFallback = webFallback
        self.comment = comment
    }

    /// True when `version` on `platform` is in the route's range (switched off or not).
    public func inRange(_ platform: Platform, _ version: Version) -> Bool {
        action == .open && (platforms[platform]?.contains(version) ?? false)
    }

    /// True when some version of `live` (ascending) handles the route: `contains { handles(platform, $0) }`
    /// with the range and switch-offs looked up once and the first version in range found by bisection
    /// (generating an app's AASA asks this of every route).
    public func handlesAny(_ platform: Platform, ofAscending live: [Version]) -> Bool {
        guard action == .open, let range = platforms[platform] else { return false }
        var low = 0
        var high = live.count
        while low < high {
            let middle = (low + high) / 2
            if live[middle] < range.since { low = middle + 1 } else { high = middle }
        }
        let off = switchedOff[platform] ?? []
        for version in live[low...] {
            if let until = range.until, version >= until { return false }
            if !off.contains(where: { $0.version == version }) { return true }
        }
        return false
    }

    /// True when the route is switched off for exactly this version.
    public func isSwitchedOff(_ platform: Platform, _ version: Version) -> Bool {
        switchedOff[platform]?.contains { $0.version == version } ?? false
    }

    /// True when `version` opens this route's links in the app.
    public func handles(_ platform: Platform, _ version: Version) -> Bool {
        inRange(platform, version) && !isSwitchedOff(platform, version)
    }

    enum CodingKeys: String, CodingKey {
        case id, pattern, action, platforms, switchedOff, domains, webFallback, comment
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        pattern = try c.decode(URLPattern.self, forKey: .pattern)
        action = try c.decodeIfPresent(RouteAction.self, forKey: .action) ?? .open
        platforms = try c.decodeIfPresent([Platform: VersionRange].self, forKey: .platforms) ?? [:]
        switchedOff = try c.decodeIfPresent([Platform: [SwitchedOff]].self, forKey: .switchedOff) ?? [:]
        domains = try c.decodeIfPresent([String].self, forKey: .domains) ?? []
        webFallback = try c.decodeIfPresent(String.self, forKey: .webFallback)
        comment = try c.decodeIfPresent(String.self, forKey: .comment)
    }
}

/// One version a route is switched off for, and why.
public struct SwitchedOff: Sendable, Hashable, Codable {
    public var version: Version
    public var reason: String?

    public init(version: Version, reason: String? = nil) {
        self.version = version
        self.reason = reason
    }
}

/// A route's URL pattern, in the terms of Apple's AASA `components`.
public struct URLPattern: Sendable, Hashable, Codable {
    /// Custom URL scheme (`badoo`) for a custom-scheme route; nil for web (universal/app) links.
    public var scheme: String?
    /// Path pattern (`/l/a/*`); nil matches any path.
    public var path: String?
    /// Query pattern; nil matches any query.
    public var query: QueryPattern?
    /// Fragment pattern; nil matches any fragment.
    public var fragment: String?
    /// Case-sensitive matching; nil inherits app, then domain defaults, then true.
    public var caseSensitive: Bool?
    /// Compare the URL as written (true) or percent-decoded (false); nil inherits, then true.
    public var percentEncoded: Bool?

    public init(
        scheme: String? = nil, path: String? = nil, query: QueryPattern? = nil, fragment: String? = nil,
        caseSensitive: Bool? = nil, percentEncoded: Bool? = nil
    ) {
        self.scheme = scheme
        self.path = path
        self.query = query
        self.fragment = fragment
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }
}
