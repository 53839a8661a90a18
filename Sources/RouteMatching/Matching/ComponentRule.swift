/// One `components` rule of an AASA `applinks` detail, with its defaults already resolved.
///
/// Components follow Apple's syntax: `*` matches any run of characters (none included, `/` included), `?`
/// exactly one character (one Unicode scalar), `$(name)` a substitution variable; everything else is
/// literal. A nil component matches anything; a component absent from the URL counts as "".
///
/// How the URL is compared (pinned by the shared conformance vectors and the project's own
/// `Tests/RouteCoreTests/Fixtures/route-vectors.json`):
/// - Paths are canonicalised on both sides: leading `/` added, repeated `/` collapsed, trailing `/`
///   dropped (the root stays `/`). A final `/*` matches the bare path too (`/buy/*` matches `/buy`, not
///   `/buyer`), and `?` never matches a trailing slash that canonicalisation removed.
/// - `percentEncoded: false` decodes the URL (never the pattern) before canonicalising, so a decoded `%2F`
///   separates; escapes that are malformed or not UTF-8 stay as written.
/// - `caseSensitive: false` lower-cases pattern and URL scalar by scalar, hex escapes and query item names
///   included; `$(upper)`/`$(lower)` then accept any letter.
/// - Query items split on `&` and the first `=`; empty pieces are skipped, `+` is not a space.
/// - `$(alpha) $(upper) $(lower) $(alnum) $(digit) $(xdigit)` are one ASCII character; `$(lang)` and
///   `$(region)` one ISO 639-1 / ISO 3166-1 alpha-2 code; predefined names win over user lists; an unknown
///   `$(name)` is literal text.
public struct ComponentRule: Sendable, Hashable {
    /// The `/` pattern; nil matches any path.
    public var path: String?
    /// The `?` pattern; nil matches any query.
    public var query: QueryRule?
    /// The `#` pattern; nil matches any fragment.
    public var fragment: String?
    /// True when a match means "not the app" (`exclude: true`).
    public var exclude: Bool
    /// Compare case-sensitively (Apple's default).
    public var caseSensitive: Bool
    /// Compare the URL as written (true, Apple's default) or percent-decoded (false).
    public var percentEncoded: Bool

    public init(
        path: String? = nil, query: QueryRule? = nil, fragment: String? = nil, exclude: Bool = false,
        caseSensitive: Bool = true, percentEncoded: Bool = true
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }
}

/// The `?` component of a rule.
public enum QueryRule: Sendable, Hashable {
    /// A pattern matched against the whole query as one string (an absent query counts as "").
    case string(String)
    /// Named items: each must match, every occurrence of a repeated name must match, a missing item counts
    /// as "", and items the rule does not name are ignored.
    case items([String: String])
}

/// What an AASA says about a URL for an app.
public enum MatchOutcome: String, Sendable, Hashable, Codable {
    /// A rule matched and it is not an exclusion: iOS opens the app.
    case match
    /// An `exclude` rule matched first: iOS opens the browser.
    case exclude
    /// No rule matched (or the app or host is not covered): iOS opens the browser.
    case noMatch = "no_match"
}
