/// A host the apps answer for (`m.badoo.com`). Resource name: `domains/{host}`.
public struct Domain: Sendable, Hashable, Codable {
    /// Lower-case host name without a trailing dot or port.
    public var host: String
    /// IDs of the apps served on this host, in AASA order.
    public var apps: [String]
    /// When set, this host serves exactly the rules of that host (e.g. `www.badoo.com` → `badoo.com`).
    public var aliasOf: String?
    /// Matching defaults for the whole domain (Apple's top-level `defaults`).
    public var defaults: MatchDefaults?
    /// User-defined substitution variables (`$(food)` → `["burrito", "pizza"]`).
    public var substitutionVariables: [String: [String]]?
    /// Also emit the legacy `paths` form for iOS 12 and earlier.
    public var legacyPaths: Bool?
    /// A link domain: the registry serves short links on it (`https://go.badoo.com/{code}`). Its AASA and
    /// assetlinks claim the link paths through a route of the app's like any other.
    public var links: Bool?
    /// On a link domain, show the social preview a long link carries (FDL's `st`, `sd`, `si`), marked as
    /// supplied by the link; off (nil) by default, so a stranger's words never appear on the company's domain.
    public var longLinkPreviews: Bool?

    public init(
        host: String, apps: [String], aliasOf: String? = nil, defaults: MatchDefaults? = nil,
        substitutionVariables: [String: [String]]? = nil, legacyPaths: Bool? = nil, links: Bool? = nil,
        longLinkPreviews: Bool? = nil
    ) {
        self.host = host
        self.apps = apps
        self.aliasOf = aliasOf
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
        self.legacyPaths = legacyPaths
        self.links = links
        self.longLinkPreviews = longLinkPreviews
    }

    /// Whether the registry serves short links on it.
    public var isLinkDomain: Bool { links == true }
}

extension Domain {
    /// True when `a` and `b` name the same host, ASCII case-insensitively, without allocating: generation
    /// asks it for every route and host on every write.
    public static func sameHost(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8) { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
    }
}
