import Testing

@testable import RouteCore

/// `LinkInAppBrowser` recognises real in-app browser User-Agents on both platforms, leaves the system browsers
/// and crawlers alone, and the landing page inside one offers the action that works there.
@Suite struct LinkInAppBrowserTests {
    /// Real User-Agent strings of in-app browsers (as seen in access logs and published UA lists), with the
    /// platform `LinkVisitor` must give them and the browser recognised.
    static let examples: [(String, LinkVisitor, LinkInAppBrowser)] = [
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 Instagram 326.0.3.30.91 (iPhone14,5; iOS 17_4; en_US; en; scale=3.00; 1170x2532; "
                + "586949779)", .ios, .instagram
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like "
                + "Gecko) Version/4.0 Chrome/123.0.6312.118 Mobile Safari/537.36 Instagram 326.0.0.42.90 Android "
                + "(34/14; 480dpi; 1080x2340; samsung; SM-S918B; dm3q; qcom; en_US; 587573563)", .android, .instagram
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 [FBAN/FBIOS;FBAV/460.0.0.48.109;FBBV/580144536;FBDV/iPhone14,5;FBMD/iPhone;"
                + "FBSN/iOS;FBSV/17.4;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/80]", .ios, .facebook
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like "
                + "Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/455.0.0.44.88;]",
            .android, .facebook
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 [FBAN/MessengerForiOS;FBAV/450.0.0.38.108;FBBV/567839911;FBDV/iPhone15,2;"
                + "FBMD/iPhone;FBSN/iOS;FBSV/17.3;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/5]", .ios, .messenger
        ),
        (
            "Mozilla/5.0 (Linux; Android 12; SM-G991B Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like "
                + "Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36 [FB_IAB/Orca-Android;"
                + "FBAV/442.0.0.12.110;]", .android, .messenger
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "GSA/308.0.617218563 Mobile/15E148 Safari/604.1", .ios, .google
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 [LinkedInApp]/9.29.7912", .ios, .linkedin
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 musical_ly_34.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en "
                + "Region/US isDarkMode/0 WKWebView/1 RevealType/Dialog BytedanceWebview/d8a21c6", .ios, .tiktok
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like "
                + "Gecko) Version/4.0 Chrome/121.0.6167.178 Mobile Safari/537.36 trill_330603 JsSdk/1.0 "
                + "NetType/WIFI Channel/googleplay AppName/trill app_version/33.6.3 ByteLocale/en "
                + "ByteFullLocale/en Region/US BytedanceWebview/d8a21c6", .android, .tiktok
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 Twitter for iPhone/10.34", .ios, .twitter
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A.240305.019; wv) AppleWebKit/537.36 (KHTML, like "
                + "Gecko) Version/4.0 Chrome/122.0.6261.105 Mobile Safari/537.36 TwitterAndroid", .android, .twitter
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 Snapchat/12.80.0.38 (like Safari/8617.2.4.10.8, panda)", .ios, .snapchat
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 Safari Line/14.3.0", .ios, .line
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SO-51C Build/61.2.F.0.276; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36 Line/13.21.0/IAB", .android, .line
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN", .ios, .wechat
        ),
        (
            "Mozilla/5.0 (Linux; Android 12; V2185A Build/SP1A.210812.003; wv) AppleWebKit/537.36 (KHTML, like "
                + "Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5049 MMWEBSDK/20230303 "
                + "MMWEBID/5788 MicroMessenger/8.0.34.2340(0x2800225D) WeChat/arm64 Weixin NetType/WIFI "
                + "Language/zh_CN ABI/arm64", .android, .wechat
        ),
    ]

    /// System browsers (and the views that present as them) carry no in-app mark.
    static let browsers = [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            + "Version/17.4 Mobile/15E148 Safari/604.1",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            + "CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1",
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile "
            + "Safari/537.36",
        "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
        "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 "
            + "Chrome/117.0.0.0 Mobile Safari/537.36",
    ]

    /// Crawlers whose names echo the apps' (their previews of a link are not a person inside the app).
    static let crawlers = [
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "Mozilla/5.0 (compatible; Snap URL Preview Service; bot; snapchat; https://developers.snap.com/robots)",
        "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
        "Twitterbot/1.0",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            + "Mobile/15E148 Instagram 326.0 facebookexternalhit/1.1",
    ]

    @Test(arguments: examples)
    func recognisesRealInAppUserAgents(userAgent: String, platform: LinkVisitor, browser: LinkInAppBrowser) {
        #expect(LinkVisitor(userAgent: userAgent) == platform)
        #expect(LinkInAppBrowser(userAgent: userAgent) == browser)
    }

    @Test func everyBrowserHasARealExample() {
        #expect(Set(Self.examples.map(\.2)) == Set(LinkInAppBrowser.allCases))
    }

    @Test(arguments: browsers)
    func systemBrowsersAreNotInApp(userAgent: String) {
        #expect(LinkInAppBrowser(userAgent: userAgent) == nil)
        #expect(LinkInAppBrowser(userAgent: nil) == nil)
    }

    @Test(arguments: crawlers)
    func crawlersStayCrawlersAndGetThePreview(userAgent: String) {
        #expect(LinkVisitor(userAgent: userAgent) == .crawler)
        let link = ShortLink(domain: "go.badoo.com", code: "c", target: "https://m.badoo.com/c")
        let answer = LinkAnswer(
            link, app: LinkAnswerTests.app, shortURL: "https://go.badoo.com/c", visitor: .crawler,
            fromFallback: false, inApp: LinkInAppBrowser(userAgent: userAgent))
        guard case .crawler(let content) = answer else {
            Issue.record("not the crawler page: \(answer)")
            return
        }
        #expect(content.inAppHint == nil)
    }

    /// No in-app token is, contains or sits inside a crawler token, so the two lists cannot overlap.
    @Test func tokensAreDisjointFromCrawlerTokens() {
        for (token, _) in LinkInAppBrowser.tokens {
            for crawler in LinkVisitor.crawlerTokens {
                #expect(!token.contains(crawler) && !crawler.contains(token), "\(token) vs \(crawler)")
            }
        }
    }

    @Test func onlyTheFirstBytesAreScanned() {
        let padded = String(repeating: "x", count: LinkVisitor.maximumScannedBytes) + " Instagram 326.0"
        #expect(LinkInAppBrowser(userAgent: padded) == nil)
    }
}
