/// One observation about a generated document or the rules behind it, returned by publish and preview.
public struct LintFinding: Sendable, Hashable, Codable {
    /// `warning` never blocks a publish; `error` describes what made it fail.
    public enum Severity: String, Sendable, Hashable, Codable {
        case warning
        case error
    }

    /// How serious it is.
    public var severity: Severity
    /// A stable machine-readable code (see `LintCode`).
    public var code: String
    /// A sentence for the release engineer.
    public var message: String
    /// The route concerned, when there is one.
    public var route: String?

    public init(severity: Severity, code: String, message: String, route: String? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.route = route
    }
}

/// The lint codes RouteRegistry emits.
public enum LintCode {
    /// A rule that can never match: an earlier rule matches every URL it matches.
    public static let shadowedRule = "shadowed_rule"
    /// A rule the legacy `paths` form cannot express (query, fragment, options, variables).
    public static let legacyUnreachable = "legacy_unreachable"
    /// Two `open` rules that can match the same URL but are handled by different version ranges.
    public static let overlappingOpenRanges = "overlapping_open_ranges"
    /// The document uses more than 90% of Apple's 128 KB limit.
    public static let sizeNearLimit = "size_near_limit"
    /// The document claims no URL for any app.
    public static let emptyDocument = "empty_document"
    /// A rule `assetlinks.json` dynamic rules cannot express exactly (Android 15 App Links).
    public static let androidUnexpressible = "android_unexpressible"
    /// The document was compacted to fit the size limit.
    public static let compacted = "compacted"
    /// An AASA file that is not strict JSON: iOS ignores all of it (`routereg aasa lint`).
    public static let invalidJSON = "invalid_json"
    /// An AASA file RouteRegistry cannot read as universal-link rules (a value of the wrong type).
    public static let unusableDocument = "unusable_document"
    /// A shape Apple documents no behaviour for (e.g. both `paths` and `components` in one detail).
    public static let ambiguousShape = "ambiguous_shape"
    /// A component key Apple does not document; iOS ignores it.
    public static let unknownKey = "unknown_key"
    /// A `/` pattern without a leading slash.
    public static let pathWithoutSlash = "path_without_slash"
    /// A `?` pattern of a type iOS ignores.
    public static let ignoredQuery = "ignored_query"
    /// A rule identical to an earlier one of the same detail.
    public static let duplicateRule = "duplicate_rule"
}
