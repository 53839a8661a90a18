import Foundation
import RouteMatching

/// What the app should do with a URL it was handed (`onOpenURL`, a universal link, a notification's link),
/// decided locally from the table in use.
public enum LinkRoute: Sendable, Hashable {
    /// This version handles it: show the screen of the registry's route `route` (its ID, `profile`) for `url`.
    /// An app's router dispatches on the route ID instead of parsing the path again; `url` is the link to
    /// show, which for a short link is its target (`https://m.badoo.com/u/42`), not the short URL.
    case openInApp(route: String, url: URL)
    /// This version cannot: open this web page instead (the link plus the fallback marker, or a custom-scheme
    /// route's web equivalent).
    case openInBrowser(URL)
    /// Not the registry's business: a custom scheme the table does not manage (an OAuth callback, an SDK's
    /// scheme; any custom scheme while no table is known). iOS delivered it because the app registered the
    /// scheme, so route it in the app as if the store did not exist.
    case passThrough
    /// Neither handle nor reopen it: a web link to a host the table does not know (handing it back to the
    /// system could bring it straight back), or a link this version cannot handle that has no web page.
    case ignore
}

extension CanOpenStore {
    /// Where `url` should go: `decide(_:)`, plus what the decision alone does not say, which custom-scheme
    /// links are someone else's (`passThrough`). Local and synchronous: a short link on a link domain is
    /// answered as its link domain's route decides it (`links-go-badoo-com`) unless its resolution is cached;
    /// `open(_:from:)` resolves it.
    public func route(_ url: URL) -> LinkRoute {
        let scheme = url.scheme?.lowercased() ?? ""
        if !LinkURL.isWebScheme(scheme), !managesScheme(scheme) { return .passThrough }
        let decision = decide(url)
        if let version, let key = shortLinkKey(url, decision: decision),
            let cached = shortLinks.entry(key, version: version, fresh: false)?.resolution
        {
            return linkRoute(for: decideTarget(cached), url: URL(string: cached.target) ?? url)
        }
        return linkRoute(for: decision, url: url)
    }

    /// The route a decision for `url` leads to.
    func linkRoute(for decision: Decision, url: URL) -> LinkRoute {
        switch decision.decision {
        case .openInApp: return .openInApp(route: decision.route ?? "", url: url)
        case .notAssociated: return .ignore
        case .openInBrowser:
            if let fallback = decision.fallbackUrl {
                return URL(string: fallback).map(LinkRoute.openInBrowser) ?? .ignore
            }
            return fallbackURL(for: url).map(LinkRoute.openInBrowser) ?? .ignore
        }
    }

    /// Whether the table in use has rules for the custom `scheme`; false without a table, which cannot say.
    func managesScheme(_ scheme: String) -> Bool {
        guard let table = state.withLock({ $0.compiled?.table }) else { return false }
        return table.schemes.contains { $0.name.lowercased() == scheme }
    }
}
