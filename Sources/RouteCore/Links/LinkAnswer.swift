/// What a short link answers one visitor: decided once per click from values alone (the link, its app, who is
/// asking, whether they came back from a fallback), then rendered and counted by the server. Every URL in it
/// carries the link's campaign where the campaign belongs (`LinkCampaign`).
public enum LinkAnswer: Sendable, Hashable {
    /// The preview page (Open Graph tags), for link-preview fetchers.
    case crawler(LinkPageContent)
    /// The landing page with its buttons, for phones.
    case landing(LinkPageContent)
    /// A 302: desktops to the web, phones straight to the target when the link skips the landing page.
    case redirect(String)

    /// How a click is counted: the answer's kind.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        case crawler, landing, redirect
    }

    public var outcome: Outcome {
        switch self {
        case .crawler: .crawler
        case .landing: .landing
        case .redirect: .redirect
        }
    }

    /// The answer for `visitor`. `app` is the link's app as the snapshot has it (nil: shown as "the app", no store
    /// button); `previewFromURL` marks a long link's preview as the URL's words. `inApp`, for a phone inside an
    /// app's own browser: the landing page even when the link skips it (a redirect there only loads the website
    /// in that view), with the "Open in Safari" hint on iOS and an `intent:` URL as "Open in {app}" on Android.
    public init(
        _ link: ShortLink, app: App?, shortURL: String, visitor: LinkVisitor, fromFallback: Bool,
        previewFromURL: Bool = false, inApp: LinkInAppBrowser? = nil
    ) {
        let campaign = link.utm ?? LinkCampaign()
        if visitor == .desktop {
            self = .redirect(campaign.applied(to: link.desktopUrl ?? link.target))
            return
        }
        let inApp = visitor == .ios || visitor == .android ? inApp : nil
        if visitor != .crawler, link.skipLanding == true, !fromFallback, inApp == nil {
            // Straight to the deep link, which opens the app when it can: it is the app's URL, kept as is.
            self = .redirect(link.target)
            return
        }
        var content = Self.content(link, app: app, shortURL: shortURL, visitor: visitor, campaign: campaign)
        content.previewFromURL = previewFromURL
        if let inApp { Self.adapt(&content, to: inApp, visitor: visitor, app: app) }
        self = visitor == .crawler ? .crawler(content) : .landing(content)
    }

    private static func content(
        _ link: ShortLink, app: App?, shortURL: String, visitor: LinkVisitor, campaign: LinkCampaign
    ) -> LinkPageContent {
        let policy = app?.fallback ?? FallbackPolicy()
        let platform: Platform? = visitor == .ios ? .ios : visitor == .android ? .android : nil
        let linkName = "\(link.domain)/\(link.code)"
        var store: String?
        if platform == .ios, let id = app?.ios?.appStoreId {
            store = StoreLinks.appStore(
                appStoreId: id, campaign: campaign.campaign ?? linkName, providerToken: app?.ios?.appStoreProviderToken)
        } else if platform == .android, let package = app?.android?.packageName {
            store = StoreLinks.playStore(packageName: package, referrer: campaign.playReferrer(link: linkName))
        }
        let web = platform.flatMap { link.options($0)?.fallbackUrl } ?? FallbackURL.make(link.target, policy: policy)
        return LinkPageContent(
            shortURL: shortURL, title: link.preview?.title, description: link.preview?.description,
            imageURL: link.preview?.imageUrl, appName: app?.displayName ?? app?.id ?? "the app", openURL: link.target,
            storeURL: store, webURL: campaign.applied(to: web))
    }

    /// The landing page inside an in-app browser: the hint on iOS (where a tap on "Open in {app}" may still
    /// work, so it stays); on Android "Open in {app}" as an `intent:` URL whose fallback is the page's own web
    /// URL (or the target when the page has none, the destination the button had anyway).
    private static func adapt(
        _ content: inout LinkPageContent, to inApp: LinkInAppBrowser, visitor: LinkVisitor, app: App?
    ) {
        if visitor == .ios {
            content.inAppHint = inApp.iosHint()
        } else if visitor == .android, let package = app?.android?.packageName,
            let intent = StoreLinks.androidIntent(
                target: content.openURL, packageName: package, fallback: content.webURL ?? content.openURL)
        {
            content.openURL = intent
        }
    }
}
