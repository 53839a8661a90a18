import Foundation
import RouteMatching

/// Where a URL handed to `CanOpenStore.open(_:from:)` came from. Every source reaches the same `Decision`;
/// the source changes only what happens to a web link the app's table does not know (see `LinkOpening`).
public enum LinkSource: String, Sendable, Hashable, CaseIterable {
    /// A universal link (`application(_:continue:restorationHandler:)`, `onOpenURL` with an https URL).
    case universalLink
    /// A custom-scheme link (`badoo://offer/7`, `onOpenURL`).
    case customScheme
    /// A notification's payload (`userInfo["url"]`, `UNUserNotificationCenterDelegate`).
    case notification
    /// A home-screen quick action (`UIApplicationShortcutItem.userInfo["url"]`).
    case shortcut
    /// A widget's `widgetURL` / `Link`.
    case widget
    /// A message shown inside the app (a marketing SDK's in-app message).
    case inAppMessage

    /// The sources the operating system routes by the app's association (the AASA, the registered schemes):
    /// sending a link the app does not know back to the system could bring it straight back here. Links
    /// from the app's own surfaces (notifications, shortcuts, widgets, in-app messages) can go to the browser.
    public var isSystemRouted: Bool { self == .universalLink || self == .customScheme }

    /// The URL a payload carries under `key` (`userInfo["url"]` of a notification or shortcut, an FCM data
    /// message's `url`), as text or as a URL; nil when it has none or it is not a URL.
    public static func url(in payload: [AnyHashable: Any], key: String = "url") -> URL? {
        switch payload[key] {
        case let url as URL: url
        case let text as String: URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines))
        default: nil
        }
    }
}

/// What `CanOpenStore.open(_:from:)` decided for a URL: the route to follow, and why.
public struct LinkOpening: Sendable, Hashable {
    /// How a short link's target was found.
    public enum Resolution: String, Sendable, Hashable {
        /// The registry answered `Links.Resolve` now.
        case server
        /// A resolution kept from an earlier open (fresh, or stale while the registry cannot be reached).
        case cache
        /// The registry could not be reached in time and nothing was cached: the short URL opens in the
        /// browser, where the registry's landing page takes over.
        case unavailable
        /// The registry does not know the code (never existed, expired, deleted): the browser shows its page.
        case notFound
        /// The link belongs to another app of the registry.
        case otherApp
    }

    /// Where the URL came from.
    public var source: LinkSource
    /// The URL as received (the short URL for a short link).
    public var url: URL
    /// The decision for the URL, or for a short link's target: `open_in_app` with the route's ID, or
    /// `open_in_browser` with a reason; `unsupported_version` carries `supportedSince`, so the app can offer
    /// the update.
    public var decision: Decision
    /// What to do.
    public var route: LinkRoute
    /// For a short link (a path on one of the app's link domains): how it was resolved.
    public var resolution: Resolution?
    /// For a resolved short link: the registry's answer.
    public var shortLink: ShortLinkResolution?

    public init(
        source: LinkSource, url: URL, decision: Decision, route: LinkRoute, resolution: Resolution? = nil,
        shortLink: ShortLinkResolution? = nil
    ) {
        self.source = source
        self.url = url
        self.decision = decision
        self.route = route
        self.resolution = resolution
        self.shortLink = shortLink
    }

    /// The version to update to, when the decision is `unsupported_version` below the route's range.
    public var supportedSince: String? { decision.supportedSince }
}
