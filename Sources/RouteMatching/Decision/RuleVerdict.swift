/// What the first matching rule means for one app version: the part of a decision that depends on the
/// version. The decision engine derives it from the route; a canOpen table stores it per rule.
public enum RuleVerdict: String, Sendable, Hashable, Codable {
    /// The version opens the rule's links in the app.
    case open
    /// An `exclude` rule: always the browser.
    case exclude
    /// In range but switched off for this version: fall back to the browser.
    case switchedOff = "switched_off"
    /// Not handled by this version: fall back to the browser.
    case unsupported
}

/// Turns a first match into a `Decision`: shared by the decision engine and canOpen tables so both
/// answer identically.
package enum DecisionMaking {
    /// The decision for a URL whose first matching rule had `verdict` (nil: no rule matched).
    /// `fallbackURL` is the browser URL to use when the decision is to fall back; it is evaluated only for
    /// browser decisions, since building it is most of a decision's cost and most decisions open the app.
    package static func decide(
        verdict: RuleVerdict?, route: String?, supportedSince: String?, fallbackURL: @autoclosure () -> String?
    ) -> Decision {
        guard let verdict else {
            return Decision(decision: .openInBrowser, reason: .noRoute, fallbackUrl: fallbackURL())
        }
        switch verdict {
        case .open:
            return Decision(decision: .openInApp, reason: .route, route: route)
        case .exclude:
            return Decision(decision: .openInBrowser, reason: .excluded, route: route, fallbackUrl: fallbackURL())
        case .switchedOff:
            return Decision(decision: .openInBrowser, reason: .switchedOff, route: route, fallbackUrl: fallbackURL())
        case .unsupported:
            return Decision(
                decision: .openInBrowser, reason: .unsupportedVersion, route: route, fallbackUrl: fallbackURL(),
                supportedSince: supportedSince)
        }
    }

    /// The URL matched for a custom-scheme link: iOS reports `badoo://offer/1` with host `offer`, which
    /// RouteRegistry treats as the first path segment, so a scheme route's path is `/offer/*`.
    package static func schemeMatchURL(_ url: LinkURL) -> LinkURL {
        let path = url.host.isEmpty ? url.path : "/" + url.host + url.path
        return LinkURL(scheme: url.scheme, host: "", path: path, query: url.query, fragment: url.fragment)
    }

    /// True for the schemes universal links and App Links use.
    package static func isWebScheme(_ scheme: String) -> Bool { scheme == "https" || scheme == "http" }

    /// The matcher rule that recognises the fallback marker, the same rule the AASA excludes first.
    package static func markerRule(_ policy: FallbackPolicy) -> ComponentRule {
        ComponentRule(query: .items([policy.queryItem: "?*"]), exclude: true)
    }
}
