// Apps that open links in their own web view (Instagram, Facebook, TikTok, …) mark their User-Agent with a token
// of their own. In such a view iOS does not follow a universal link on the page that was loaded, and a 302 to the
// target only loads the website; so a phone in one gets the landing page with the action that works there.
// Read only for phones (after `LinkVisitor` said `.ios` or `.android`, so never for a crawler) with the same
// bounded, allocation-light byte scan. No token here may be a crawler token or contain one (a test checks it):
// a preview fetcher must never be taken for a person inside an app.

/// The in-app browser a phone's link visit comes from, as far as the User-Agent marks it; nil for Safari,
/// Chrome and any view that carries no mark (SFSafariViewController and Chrome Custom Tabs send the browser's
/// own User-Agent, and Telegram's view carries no mark of its own).
public enum LinkInAppBrowser: UInt8, Sendable, Hashable, CaseIterable {
    case instagram = 1
    case messenger
    case facebook
    case google
    case linkedin
    case tiktok
    case twitter
    case snapchat
    case line
    case wechat

    /// The app's name as the landing page shows it ("Opened inside Instagram?").
    public var appName: String {
        switch self {
        case .instagram: "Instagram"
        case .messenger: "Messenger"
        case .facebook: "Facebook"
        case .google: "the Google app"
        case .linkedin: "LinkedIn"
        case .tiktok: "TikTok"
        case .twitter: "X"
        case .snapchat: "Snapchat"
        case .line: "LINE"
        case .wechat: "WeChat"
        }
    }

    /// The menu item that leaves the app's view for the system browser on iOS, in the app's own words where
    /// it has its own (Meta's apps say "Open in external browser").
    public var iosMenuItem: String {
        switch self {
        case .instagram, .messenger, .facebook: "Open in external browser"
        case .tiktok: "Open in browser"
        default: "Open in Safari"
        }
    }

    /// The User-Agent marks, lower-case substrings, first match wins: Instagram before Facebook (Instagram's
    /// view is Meta's too), Messenger before Facebook (both say `FBAN/`/`FB_IAB/`).
    public static let tokens: [(token: String, browser: LinkInAppBrowser)] = [
        ("instagram", .instagram),  // "Instagram 309.0.0.40.113 (iPhone14,5; …)", "… Instagram 309.0 Android (…)"
        ("messengerforios", .messenger),  // "[FBAN/MessengerForiOS;…]"
        ("orca-android", .messenger),  // "[FB_IAB/Orca-Android;FBAV/…]"
        ("fban/", .facebook),  // "[FBAN/FBIOS;FBAV/…]"
        ("fb_iab/", .facebook),  // "[FB_IAB/FB4A;FBAV/…]"
        ("fbav/", .facebook),
        ("gsa/", .google),  // the Google app (Gmail opens links there or in its own view): "GSA/291.0.…"
        ("linkedinapp", .linkedin),  // "[LinkedInApp]/9.29.7912"; the crawler is "LinkedInBot"
        ("bytedancewebview", .tiktok),  // TikTok's view, both platforms
        ("musical_ly", .tiktok),  // TikTok iOS "musical_ly_31.5.0"
        ("twitter for iphone", .twitter),  // the crawler is "Twitterbot"
        ("twitterandroid", .twitter),
        ("snapchat/", .snapchat),  // "Snapchat/12.50.0.36"; its fetcher "Snap URL Preview Service" is a crawler
        (" line/", .line),  // "Safari Line/13.15.0", "Line/13.14.2/IAB"
        ("micromessenger", .wechat),  // "MicroMessenger/8.0.42"
    ]

    static let tokenBytes: [(token: [UInt8], browser: LinkInAppBrowser)] = tokens.map {
        (Array($0.token.utf8), $0.browser)
    }

    /// The in-app browser a phone's User-Agent marks, or nil. Call only for a visitor `LinkVisitor` classed as
    /// `.ios` or `.android`: crawler strings are told apart there, first.
    public init?(userAgent: String?) {
        guard let userAgent, !userAgent.isEmpty else { return nil }
        let found = LinkVisitor.lowered(userAgent).withUnsafeBufferPointer { ua in
            Self.tokenBytes.first { LinkVisitor.contains(ua, $0.token) }?.browser
        }
        guard let found else { return nil }
        self = found
    }

    /// The hint the landing page shows inside this app on iOS, where a tap may not open the app.
    public func iosHint() -> String {
        "Opened inside \(appName)? Tap ••• and choose \(iosMenuItem)."
    }
}
