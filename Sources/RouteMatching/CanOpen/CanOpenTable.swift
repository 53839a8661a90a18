/// Everything one app version needs to decide links offline: its rules in order, each with this version's
/// verdict, the hosts and schemes they apply to, and the fallback policy.
///
/// Evaluated with the same matcher as the server (`decide(url:)`), it gives the same `Decision` as
/// `CanOpen.Check` for that version. Served by `CanOpen.GetTable` with an ETag.
public struct CanOpenTable: Sendable, Hashable, Codable {
    /// The app, platform and version the verdicts are for.
    public var app: String
    public var platform: Platform
    public var version: Version
    /// Distinct rules with options resolved; scopes refer to them by index.
    public var rules: [CanOpenRule]
    /// The hosts the app answers on, each with its ordered rule indices.
    public var domains: [CanOpenScope]
    /// The app's custom schemes, each with its ordered rule indices.
    public var schemes: [CanOpenScope]
    /// How fallback URLs are made.
    public var fallback: FallbackPolicy

    public init(
        app: String, platform: Platform, version: Version, rules: [CanOpenRule], domains: [CanOpenScope],
        schemes: [CanOpenScope], fallback: FallbackPolicy
    ) {
        self.app = app
        self.platform = platform
        self.version = version
        self.rules = rules
        self.domains = domains
        self.schemes = schemes
        self.fallback = fallback
    }

    /// Decides `url` for this version. Compiles the table on every call: keep a `CompiledCanOpenTable`
    /// when deciding many URLs.
    public func decide(url: String) -> Decision { CompiledCanOpenTable(self).decide(url: url) }

    /// The table's deterministic bytes and ETag.
    public func file() throws -> GeneratedFile { GeneratedFile(bytes: try CanonicalJSON.encode(self)) }
}

/// One rule of a canOpen table, with matching options resolved and this version's verdict.
public struct CanOpenRule: Sendable, Hashable, Codable {
    /// The route the rule comes from.
    public var route: String
    /// The pattern, as in the route (`caseSensitive`/`percentEncoded` resolved rule > app > domain).
    public var path: String?
    public var query: QueryPattern?
    public var fragment: String?
    public var caseSensitive: Bool
    public var percentEncoded: Bool
    /// The route's action.
    public var action: RouteAction
    /// What a first match on this rule means for this version.
    public var verdict: RuleVerdict
    /// The first version that handles the route, when this version is below it.
    public var supportedSince: String?
    /// For custom-scheme routes: the web URL template to fall back to (`{path}`, `{query}`).
    public var webFallback: String?

    public init(
        route: String, path: String?, query: QueryPattern?, fragment: String?, caseSensitive: Bool,
        percentEncoded: Bool, action: RouteAction, verdict: RuleVerdict, supportedSince: String?,
        webFallback: String?
    ) {
        self.route = route
        self.path = path
        self.query = query
        self.fragment = fragment
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.action = action
        self.verdict = verdict
        self.supportedSince = supportedSince
        self.webFallback = webFallback
    }

    /// The matcher rule.
    var componentRule: ComponentRule {
        ComponentRule(
            path: path, query: query?.rule, fragment: fragment, exclude: action == .exclude,
            caseSensitive: caseSensitive, percentEncoded: percentEncoded)
    }
}

/// A host or custom scheme of a canOpen table and its ordered rules.
public struct CanOpenScope: Sendable, Hashable, Codable {
    /// The host (`m.badoo.com`) or scheme (`badoo`), lower-case.
    public var name: String
    /// Indices into `CanOpenTable.rules`, in evaluation order.
    public var rules: [Int]
    /// The domain's substitution variables.
    public var substitutionVariables: [String: [String]]?
    /// True for a link domain (`go.badoo.com`): its paths are short links, which an app resolves with
    /// `Links.Resolve` before deciding their target. Absent otherwise, so tables without link domains keep
    /// their bytes and ETags.
    public var links: Bool?

    public init(
        name: String, rules: [Int], substitutionVariables: [String: [String]]? = nil, links: Bool? = nil
    ) {
        self.name = name
        self.rules = rules
        self.substitutionVariables = substitutionVariables
        self.links = links
    }
}
