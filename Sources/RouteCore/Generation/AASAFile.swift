/// The `apple-app-site-association` document as RouteRegistry writes it. Keys are Apple's spellings;
/// optional fields are left out when nil so the bytes stay minimal and deterministic.
public struct AASAFile: Sendable, Hashable, Codable {
    /// Universal links.
    public var applinks: AASAAppLinks
    /// Password autofill (`{"apps": [...]}`), when an app asks for it.
    public var webcredentials: AASAAppList?
    /// App Clips, when an app declares any.
    public var appclips: AASAAppList?

    public init(applinks: AASAAppLinks, webcredentials: AASAAppList? = nil, appclips: AASAAppList? = nil) {
        self.applinks = applinks
        self.webcredentials = webcredentials
        self.appclips = appclips
    }
}

/// The `applinks` section.
public struct AASAAppLinks: Sendable, Hashable, Codable {
    /// Legacy iOS (≤ 12) requires an empty `apps` array; written only with the legacy form.
    public var apps: [String]?
    /// One entry per app, in the domain's app order.
    public var details: [AASADetail]
    /// The domain's matching defaults (`caseSensitive`, `percentEncoded`).
    public var defaults: MatchDefaults?
    /// The domain's user-defined substitution variables.
    public var substitutionVariables: [String: [String]]?

    public init(
        apps: [String]? = nil, details: [AASADetail], defaults: MatchDefaults? = nil,
        substitutionVariables: [String: [String]]? = nil
    ) {
        self.apps = apps
        self.details = details
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
    }
}

/// One `details` entry: the modern `appIDs` + `components`, and optionally the legacy `appID` + `paths`.
public struct AASADetail: Sendable, Hashable, Codable {
    /// The app IDs the components apply to (iOS 13+).
    public var appIDs: [String]?
    /// The rules, in evaluation order (iOS 13+).
    public var components: [AASAComponent]?
    /// Legacy single app ID (iOS ≤ 12).
    public var appID: String?
    /// Legacy path list (`NOT ` prefix for exclusions).
    public var paths: [String]?

    public init(
        appIDs: [String]? = nil, components: [AASAComponent]? = nil, appID: String? = nil, paths: [String]? = nil
    ) {
        self.appIDs = appIDs
        self.components = components
        self.appID = appID
        self.paths = paths
    }
}

/// One rule of a `components` array.
public struct AASAComponent: Sendable, Hashable, Codable {
    /// Path pattern (`/`).
    public var path: String?
    /// Query pattern (`?`): a string or a dictionary of items.
    public var query: QueryPattern?
    /// Fragment pattern (`#`).
    public var fragment: String?
    /// `true` when a match means "not the app".
    public var exclude: Bool?
    /// Overrides the document default (`true`) when set.
    public var caseSensitive: Bool?
    /// Overrides the document default (`true`) when set.
    public var percentEncoded: Bool?
    /// Names the route the rule came from; RouteRegistry uses it to diff revisions rule by rule.
    public var comment: String?

    public init(
        path: String? = nil, query: QueryPattern? = nil, fragment: String? = nil, exclude: Bool? = nil,
        caseSensitive: Bool? = nil, percentEncoded: Bool? = nil, comment: String? = nil
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.comment = comment
    }

    enum CodingKeys: String, CodingKey {
        case path = "/"
        case query = "?"
        case fragment = "#"
        case exclude, caseSensitive, percentEncoded, comment
    }

    /// True for an `exclude: true` rule.
    public var isExclude: Bool { exclude ?? false }

    /// The same rule without its comment: what iOS actually evaluates.
    public var withoutComment: AASAComponent {
        var copy = self
        copy.comment = nil
        return copy
    }
}

/// `{"apps": [...]}` as used by `webcredentials` and `appclips`.
public struct AASAAppList: Sendable, Hashable, Codable {
    /// App IDs.
    public var apps: [String]

    public init(apps: [String]) { self.apps = apps }
}
