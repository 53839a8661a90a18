import Testing

@testable import RouteCore

/// The visitor decision as a value: who gets which answer, and where the campaign goes (web destinations and
/// stores, never the deep link).
@Suite struct LinkAnswerTests {
    static let app = App(
        id: "badoo", displayName: "Badoo",
        ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"], appStoreId: "351331194"),
        android: AndroidConfig(packageName: "com.badoo.mobile", sha256CertFingerprints: []))
    static let link = ShortLink(
        domain: "go.badoo.com", code: "summer", target: "https://m.badoo.com/l/a/42",
        utm: LinkCampaign(source: "mail", campaign: "summer"))

    static func answer(_ visitor: LinkVisitor, _ link: ShortLink = link, fromFallback: Bool = false) -> LinkAnswer {
        LinkAnswer(
            link, app: app, shortURL: "https://go.badoo.com/summer", visitor: visitor, fromFallback: fromFallback)
    }

    @Test func eachVisitorGetsItsKindOfAnswer() {
        #expect(Self.answer(.crawler).outcome == .crawler)
        #expect(Self.answer(.ios).outcome == .landing)
        #expect(Self.answer(.android).outcome == .landing)
        #expect(Self.answer(.desktop) == .redirect("https://m.badoo.com/l/a/42?utm_source=mail&utm_campaign=summer"))
        var skipping = Self.link
        skipping.skipLanding = true
        #expect(Self.answer(.ios, skipping) == .redirect("https://m.badoo.com/l/a/42"))
        #expect(Self.answer(.ios, skipping, fromFallback: true).outcome == .landing)
        #expect(Self.answer(.crawler, skipping).outcome == .crawler)
    }

    @Test func theCampaignGoesToTheWebAndTheStoresNotToTheDeepLink() throws {
        guard case .landing(let ios) = Self.answer(.ios) else { throw AnswerMismatch() }
        #expect(ios.openURL == "https://m.badoo.com/l/a/42")
        #expect(ios.webURL == "https://m.badoo.com/l/a/42?ul_fallback=1&utm_source=mail&utm_campaign=summer")
        #expect(ios.storeURL == "https://apps.apple.com/app/id351331194?ct=summer&mt=8")
        guard case .landing(let android) = Self.answer(.android) else { throw AnswerMismatch() }
        #expect(
            android.storeURL
                == "https://play.google.com/store/apps/details?id=com.badoo.mobile&referrer="
                + "utm_source%3Dmail%26utm_campaign%3Dsummer%26link%3Dgo.badoo.com%2Fsummer")
        var plain = Self.link
        plain.utm = nil
        guard case .landing(let none) = Self.answer(.ios, plain) else { throw AnswerMismatch() }
        #expect(none.storeURL == "https://apps.apple.com/app/id351331194?ct=go.badoo.com%2Fsummer&mt=8")
    }

    @Test func theAppsProviderTokenGoesWithTheCampaignToTheAppStore() throws {
        let app = App(
            id: "badoo", ios: IOSConfig(appIds: [], appStoreId: "351331194", appStoreProviderToken: "118234"))
        let answer = LinkAnswer(
            Self.link, app: app, shortURL: "https://go.badoo.com/summer", visitor: .ios, fromFallback: false)
        guard case .landing(let ios) = answer else { throw AnswerMismatch() }
        #expect(ios.storeURL == "https://apps.apple.com/app/id351331194?pt=118234&ct=summer&mt=8")
    }

    @Test(arguments: [
        ("https://x.com/a", "https://x.com/a?utm_source=s&utm_campaign=c%2Fd"),
        ("https://x.com/a?", "https://x.com/a?utm_source=s&utm_campaign=c%2Fd"),
        ("https://x.com/a?b=1", "https://x.com/a?b=1&utm_source=s&utm_campaign=c%2Fd"),
        ("https://x.com/a?b=1&", "https://x.com/a?b=1&utm_source=s&utm_campaign=c%2Fd"),
        ("https://x.com/a#f?g", "https://x.com/a?utm_source=s&utm_campaign=c%2Fd#f?g"),
        ("https://x.com/a?utm_source=mine#f", "https://x.com/a?utm_source=mine&utm_campaign=c%2Fd#f"),
        ("https://x.com/a?utm_source=1&utm_campaign=2", "https://x.com/a?utm_source=1&utm_campaign=2"),
    ])
    func campaignItemsAreAddedBeforeTheFragmentWithoutReplacingTheURLsOwn(url: String, expected: String) {
        #expect(LinkCampaign(source: "s", campaign: "c/d").applied(to: url) == expected)
    }

    @Test func refusalsNameTheField() {
        #expect(LinkCampaign(source: "ok", term: "").refusal()?.field == "term")
        #expect(LinkCampaign(content: String(repeating: "x", count: 201)).refusal()?.field == "content")
        #expect(LinkCampaign(medium: "a\u{0}b").refusal()?.field == "medium")
        #expect(LinkCampaign(source: "Été 2026 ☀︎").refusal() == nil)
        #expect(LinkCampaign().isEmpty && LinkCampaign().applied(to: "https://x.com/a") == "https://x.com/a")
    }

    struct AnswerMismatch: Error {}
}
