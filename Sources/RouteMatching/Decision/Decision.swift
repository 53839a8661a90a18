/// What an app version should do with a URL: the result of `CanOpen.Check` and of a local canOpen table.
/// The JSON shape is the wire shape (`{"decision", "reason", "route", "fallbackUrl", "supportedSince"}`).
public struct Decision: Sendable, Hashable, Codable {
    /// Where the link goes.
    public enum Outcome: String, Sendable, Hashable, Codable {
        case openInApp = "open_in_app"
        case openInBrowser = "open_in_browser"
        case notAssociated = "not_associated"
    }

    /// Why it goes there.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// A route this version handles matched.
        case route
        /// An `exclude` route matched.
        case excluded
        /// The matching route is not handled by this version (too old, or past `until`).
        case unsupportedVersion = "unsupported_version"
        /// The matching route is switched off for this version.
        case switchedOff = "switched_off"
        /// The URL carries the fallback marker: it came from a fallback and must stay in the browser.
        case fallbackMarker = "fallback_marker"
        /// No route matched.
        case noRoute = "no_route"
    }

    /// Where the link goes.
    public var decision: Outcome
    /// Nil only for `not_associated`.
    public var reason: Reason?
    /// The ID of the route that decided, if one did.
    public var route: String?
    /// The URL to open in the browser instead: the original (or, for a custom scheme, the route's web
    /// equivalent) plus the fallback marker, so iOS does not send it straight back into the app.
    public var fallbackUrl: String?
    /// For `unsupported_version` below the route's range: the first version that handles it.
    public var supportedSince: String?

    public init(
        decision: Outcome, reason: Reason? = nil, route: String? = nil, fallbackUrl: String? = nil,
        supportedSince: String? = nil
    ) {
        self.decision = decision
        self.reason = reason
        self.route = route
        self.fallbackUrl = fallbackUrl
        self.supportedSince = supportedSince
    }

    /// The host or scheme is not one of the app's.
    public static let notAssociated = Decision(decision: .notAssociated)
}
