import Testing

@testable import RouteCore

/// `LinkVisitor` classifies real User-Agent strings of each class, crawlers before the devices they imitate.
@Suite struct LinkVisitorTests {
    /// Real User-Agent strings (as published by the vendors or seen in access logs) and their class.
    static let examples: [(String, LinkVisitor)] = [
        // iOS: Safari on iPhone (iOS 17), iPad in mobile mode, iPod touch, Chrome for iOS, in-app browsers.
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/17.4 Mobile/15E148 Safari/604.1", .ios
        ),
        (
            "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 "
                + "Mobile/15E148 Safari/604.1", .ios
        ),
        (
            "Mozilla/5.0 (iPod touch; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/15.6 Mobile/15E148 Safari/604.1", .ios
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1", .ios
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 [FBAN/FBIOS;FBAV/460.0.0.48.109;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.4]", .ios
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 Instagram 326.0.3.30.91 (iPhone14,5; iOS 17_4; en_US; en; scale=3.00)", .ios
        ),
        // Pinterest's and LinkedIn's in-app browsers are people, not the companies' crawlers.
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 [Pinterest/iOS]", .ios
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 [LinkedInApp]/9.29.6460", .ios
        ),

        // Android: Chrome (reduced UA), Samsung Internet, Firefox, Pinterest's in-app browser.
        (
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 "
                + "Mobile Safari/537.36", .android
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 "
                + "Chrome/117.0.0.0 Mobile Safari/537.36", .android
        ),
        ("Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0", .android),
        (
            "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 "
                + "Mobile Safari/537.36 [Pinterest/Android]", .android
        ),

        // Desktop: Firefox, Edge, Chrome on a Mac, Safari on a Mac (and iPadOS Safari in desktop mode, which
        // sends exactly this), Windows Phone (which claims Android and iPhone), curl.
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0", .desktop),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", .desktop),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 "
                + "Safari/537.36 Edg/124.0.2478.51", .desktop
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/124.0.0.0 Safari/537.36", .desktop
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/17.4 Safari/605.1.15", .desktop
        ),
        (
            "Mozilla/5.0 (Mobile; Windows Phone 8.1; Android 4.0; ARM; Trident/7.0; Touch; rv:11.0; IEMobile/11.0; "
                + "NOKIA; Lumia 635) like iPhone OS 7_0_3 Mac OS X AppleWebKit/537 (KHTML, like Gecko) Mobile "
                + "Safari/537", .desktop
        ),
        ("curl/8.5.0", .desktop),

        // Crawlers.
        ("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", .crawler),
        ("Facebot", .crawler),
        ("Twitterbot/1.0", .crawler),
        ("Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", .crawler),
        ("Slackbot 1.0 (+https://api.slack.com/robots)", .crawler),
        ("WhatsApp/2.23.20.0 A", .crawler),
        ("WhatsApp/2.23.20.0 i", .crawler),
        ("TelegramBot (like TwitterBot)", .crawler),
        ("Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", .crawler),
        ("LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", .crawler),
        ("Pinterest/0.2 (+https://www.pinterest.com/bot.html)", .crawler),
        ("Mozilla/5.0 (compatible; Pinterestbot/1.0; +https://www.pinterest.com/bot.html)", .crawler),
        ("Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com", .crawler),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.0.0 "
                + "Safari/537.36 MicrosoftPreview/2.0 +https://aka.ms/MicrosoftPreview", .crawler
        ),
        ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", .crawler),
        // Googlebot Smartphone says Android too: the crawler wins.
        (
            "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/124.0.6367.155 Mobile Safari/537.36 "
                + "(compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            .crawler
        ),
        (
            "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/124.0.6367.155 Mobile Safari/537.36 (compatible; Google-InspectionTool/1.0;)", .crawler
        ),
        // iMessage's preview fetcher: a Mac Safari string plus crawler tokens.
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) "
                + "Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0", .crawler
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/17.0 Mobile/15E148 Safari/604.1 (Applebot/0.1; +http://www.apple.com/go/applebot)", .crawler
        ),
        ("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", .crawler),
        (
            "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/534+ (KHTML, like Gecko) BingPreview/1.0b", .crawler
        ),
        ("Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)", .crawler),
        ("Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)", .crawler),
        ("Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)", .crawler),
        (
            "Mozilla/5.0 (compatible; Snap URL Preview Service; bot; snapchat; https://developers.snap.com/robots)",
            .crawler
        ),
        ("facebookexternalhit/1.1;line-poker/1.0", .crawler),
        ("facebookexternalhit/1.1; kakaotalk-scrap/1.0; +https://devtalk.kakao.com/", .crawler),
        ("kakaotalk-scrap/1.0; +https://devtalk.kakao.com/", .crawler),
        ("http.rb/5.1.1 (Mastodon/4.2.8; +https://mastodon.social/) Bot", .crawler),
        ("Mozilla/5.0 (compatible; Bluesky Cardyb/1.1; +mailto:support@bsky.app)", .crawler),
        // Uptime monitors.
        ("Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)", .crawler),
        ("Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)", .crawler),
        ("Mozilla/5.0 (compatible; StatusCake)", .crawler),
        ("Mozilla/5.0 (compatible; Site24x7)", .crawler),
        ("Datadog/Synthetics", .crawler),
        ("NewRelicPinger/1.0 (1234567)", .crawler),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 "
                + "Safari/537.36 Checkly/1.0 (https://www.checklyhq.com)", .crawler
        ),
    ]

    @Test(arguments: examples)
    func classifiesRealUserAgents(_ userAgent: String, _ expected: LinkVisitor) {
        #expect(LinkVisitor(userAgent: userAgent) == expected, "\(userAgent)")
    }

    /// Every token of the list is exercised by at least one example, so the list and the tests cannot drift.
    @Test(arguments: LinkVisitor.crawlerTokens)
    func everyCrawlerTokenHasAnExample(_ token: String) {
        #expect(Self.examples.contains { $0.1 == .crawler && $0.0.lowercased().contains(token) })
    }

    @Test func missingOrEmptyIsDesktop() {
        #expect(LinkVisitor(userAgent: nil) == .desktop)
        #expect(LinkVisitor(userAgent: "") == .desktop)
        #expect(LinkVisitor(userAgent: " ") == .desktop)
    }

    @Test(arguments: ["TWITTERBOT/1.0", "twitterbot/1.0", "TwItTeRbOt", "WHATSAPP/2.24.1 A"])
    func matchingIgnoresCase(_ userAgent: String) {
        #expect(LinkVisitor(userAgent: userAgent) == .crawler)
    }

    @Test func devicesIgnoreCaseToo() {
        #expect(LinkVisitor(userAgent: "MOZILLA/5.0 (IPHONE; CPU IPHONE OS 17_4 LIKE MAC OS X)") == .ios)
        #expect(LinkVisitor(userAgent: "mozilla/5.0 (linux; android 14)") == .android)
    }

    /// Tokens must appear whole: a fragment, or a token split by other bytes, is not a match.
    @Test(arguments: ["Twitter for iPhone", "Slack/4.37 Slack_SSB/4.37", "Telegram", "WhatsApp", "Pinterest"])
    func nearMissesAreNotCrawlers(_ userAgent: String) {
        #expect(LinkVisitor(userAgent: userAgent) != .crawler)
    }

    /// Non-ASCII bytes neither crash nor match; a letter outside ASCII is not lower-cased into a token.
    @Test func nonASCIIIsHarmless() {
        #expect(LinkVisitor(userAgent: "Mözillä/5.0 (iPhone; 日本語)") == .ios)
        #expect(LinkVisitor(userAgent: "TWİTTERBOT") == .desktop)
        #expect(LinkVisitor(userAgent: "\u{0}\u{1}\u{FFFD}") == .desktop)
    }

    /// Only the first `maximumScannedBytes` are read: a token beyond them is not seen.
    @Test func scanIsBounded() {
        let padding = String(repeating: "x", count: LinkVisitor.maximumScannedBytes)
        #expect(LinkVisitor(userAgent: padding + "Twitterbot/1.0") == .desktop)
        #expect(LinkVisitor(userAgent: String(padding.dropLast(14)) + "Twitterbot/1.0") == .crawler)
    }

    @Test func substringSearchEdges() {
        func contains(_ haystack: String, _ needle: String) -> Bool {
            Array(haystack.utf8).withUnsafeBufferPointer { LinkVisitor.contains($0, Array(needle.utf8)) }
        }
        #expect(contains("abc", "abc"))
        #expect(contains("xxabc", "abc"))
        #expect(contains("aababc", "abc"))
        #expect(!contains("ab", "abc"))
        #expect(!contains("abxabd", "abc"))
        #expect(!contains("", "a"))
        #expect(!contains("abc", ""))
    }
}
