import Testing

@testable import RouteCore

/// The landing page inside an in-app browser: the "Open in Safari" hint on iOS with both buttons kept, an
/// `intent:` URL on Android whose fallback is the page's own web URL, and no redirect past the page.
extension LinkInAppBrowserTests {
    static let link = ShortLink(
        domain: "go.badoo.com", code: "summer", target: "https://m.badoo.com/l/a/42?p=1#top",
        utm: LinkCampaign(source: "mail", campaign: "summer"))

    static func landing(_ visitor: LinkVisitor, _ inApp: LinkInAppBrowser?, _ link: ShortLink = link) throws
        -> LinkPageContent
    {
        let answer = LinkAnswer(
            link, app: LinkAnswerTests.app, shortURL: "https://go.badoo.com/summer", visitor: visitor,
            fromFallback: false, inApp: inApp)
        guard case .landing(let content) = answer else { throw LinkAnswerTests.AnswerMismatch() }
        return content
    }

    @Test func iosInAppGetsTheHintAndKeepsBothButtons() throws {
        let plain = try Self.landing(.ios, nil)
        let inside = try Self.landing(.ios, .instagram)
        #expect(plain.inAppHint == nil)
        #expect(inside.inAppHint == "Opened inside Instagram? Tap ••• and choose Open in external browser.")
        #expect(try Self.landing(.ios, .wechat).inAppHint == "Opened inside WeChat? Tap ••• and choose Open in Safari.")
        #expect(inside.openURL == plain.openURL)
        #expect(inside.storeURL == plain.storeURL && inside.storeURL != nil)
        #expect(inside.webURL == plain.webURL)
        let html = String(decoding: LinkPage.landing(inside), as: UTF8.self)
        #expect(
            html.contains(
                "<p><strong>Opened inside Instagram? Tap ••• and choose Open in external browser.</strong></p>"))
        #expect(html.contains(">Open in Badoo</a>") && html.contains(">Get Badoo</a>"))
        #expect(!String(decoding: LinkPage.landing(plain), as: UTF8.self).contains("Opened inside"))
    }

    @Test func androidInAppOpensThroughAnIntentFallingBackToThePagesWebURL() throws {
        let plain = try Self.landing(.android, nil)
        let inside = try Self.landing(.android, .tiktok)
        let web = try #require(plain.webURL)
        #expect(inside.webURL == web)
        #expect(inside.inAppHint == nil)
        #expect(
            inside.openURL
                == "intent://m.badoo.com/l/a/42?p=1#Intent;scheme=https;package=com.badoo.mobile;"
                + "S.browser_fallback_url=\(StoreLinks.percentEncode(web));end")
        #expect(plain.openURL == "https://m.badoo.com/l/a/42?p=1#top")
        let html = String(decoding: LinkPage.landing(inside), as: UTF8.self)
        #expect(
            html.contains("<a href=\"intent://m.badoo.com/l/a/42?p=1#Intent;scheme=https;package=com.badoo.mobile;"))
    }

    @Test func inAppBrowsersGetTheLandingPageEvenWhenTheLinkSkipsIt() throws {
        var skipping = Self.link
        skipping.skipLanding = true
        let safari = LinkAnswer(
            skipping, app: LinkAnswerTests.app, shortURL: "https://go.badoo.com/summer", visitor: .ios,
            fromFallback: false)
        #expect(safari.outcome == .redirect)
        #expect(try Self.landing(.ios, .facebook, skipping).inAppHint != nil)
        #expect(try Self.landing(.android, .facebook, skipping).openURL.hasPrefix("intent://"))
    }

    @Test(
        arguments: [
            (
                "https://x.com/a", "com.x", "https://x.com/a?f=1",
                "intent://x.com/a#Intent;scheme=https;package=com.x;S.browser_fallback_url=https%3A%2F%2Fx.com%2Fa%3Ff%3D1;end"
            ),
            ("HTTP://x.com/", "com.x", nil, "intent://x.com/#Intent;scheme=http;package=com.x;end"),
        ] as [(String, String, String?, String)])
    func intentURLs(target: String, package: String, fallback: String?, expected: String) {
        #expect(StoreLinks.androidIntent(target: target, packageName: package, fallback: fallback) == expected)
    }

    @Test(arguments: [
        ("badoo://open", "com.x"), ("https://x.com/a", "com.x;S.evil=1"), ("https://x.com/a b", "com.x"),
        ("https://x.com/a;end", "com.x"), ("https://", "com.x"), ("https://x.com/a", ""),
    ])
    func noIntentForAnythingThatCouldBreakIt(target: String, package: String) {
        #expect(StoreLinks.androidIntent(target: target, packageName: package, fallback: "https://x.com/") == nil)
    }
}
