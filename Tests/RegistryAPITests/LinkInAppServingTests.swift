import Foundation
import RegistryTesting
import Testing

/// In-app browsers over real HTTP: Safari and Instagram on the same iPhone get different landing pages from the
/// same server (the prepared-answer cache keeps them apart, in both orders), Android's in-app view gets the
/// `intent:` URL, a skipping link still shows its page inside an app, and the clicks count as phone landings.
@Suite(.serialized) struct LinkInAppServingTests {
    static let instagramIOS =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Mobile/15E148 Instagram 326.0.3.30.91 (iPhone14,5; iOS 17_4; en_US; en; scale=3.00; 1170x2532; 586949779)"
    static let facebookAndroid =
        "Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
        + "Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/455.0.0.44.88;]"

    @Test func inAppBrowsersGetTheirOwnLandingPage() async throws {
        let server = try TestRegistryServer(suite: "links_inapp")
        defer { server.shutdown() }
        try await LinksServingTests.seed(server)
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "anna", "target": "https://m.badoo.com/u/7"]])
        _ = try await server.result(
            "Links.Create",
            ["app": "badoo", "link": ["code": "skip", "target": "https://m.badoo.com/u/8", "skipLanding": true]])

        // Safari first, then Instagram, then Safari again: each from the cache after its first click.
        for _ in 0..<2 {
            let safari = try LinksServingTests.visit(server, "/anna", agent: LinksServingTests.safari)
            #expect(safari.status == 200 && !safari.text.contains("Opened inside"))
            let instagram = try LinksServingTests.visit(server, "/anna", agent: Self.instagramIOS)
            #expect(instagram.status == 200)
            #expect(instagram.text.contains("Opened inside Instagram? Tap ••• and choose Open in external browser."))
            #expect(instagram.text.contains("<a href=\"https://m.badoo.com/u/7\">Open in Badoo</a>"))
            #expect(instagram.text.contains("apps.apple.com/app/id351331194"))
            #expect(!instagram.text.contains("<script"))
        }

        let chrome = try LinksServingTests.visit(server, "/anna", agent: LinksServingTests.chromeAndroid)
        #expect(!chrome.text.contains("intent://"))
        let facebook = try LinksServingTests.visit(server, "/anna", agent: Self.facebookAndroid)
        #expect(facebook.status == 200)
        #expect(
            facebook.text.contains(
                "<a href=\"intent://m.badoo.com/u/7#Intent;scheme=https;package=com.badoo.mobile;"
                    + "S.browser_fallback_url=https%3A%2F%2Fm.badoo.com%2Fu%2F7%3Ful_fallback%3D1;end\">Open in Badoo</a>"
            ))
        // The intent's fallback is the page's own "Continue on the web" URL.
        #expect(facebook.text.contains("<a href=\"https://m.badoo.com/u/7?ul_fallback=1\">Continue on the web</a>"))

        // A link that skips the landing page redirects Safari, but shows its page inside an app.
        let skipped = try LinksServingTests.visit(server, "/skip", agent: LinksServingTests.safari)
        #expect(skipped.status == 302 && skipped.header("location") == "https://m.badoo.com/u/8")
        let inside = try LinksServingTests.visit(server, "/skip", agent: Self.instagramIOS)
        #expect(inside.status == 200 && inside.text.contains("Opened inside Instagram?"))
        // A crawler named after an app is still a crawler.
        let preview = try LinksServingTests.visit(
            server, "/anna", agent: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)")
        #expect(preview.text.contains("og:title") && !preview.text.contains("Opened inside"))

        let stats = try await server.result("Links.Stats", ["domain": "go.badoo.com", "code": "anna"])
        let counts = try #require(stats["counts"] as? [[String: Any]])
        func count(_ platform: String, _ outcome: String) -> Int {
            counts.filter { $0["platform"] as? String == platform && $0["outcome"] as? String == outcome }
                .reduce(0) { $0 + ($1["count"] as? Int ?? 0) }
        }
        #expect(count("ios", "landing") == 4)
        #expect(count("android", "landing") == 2)
        #expect(count("crawler", "crawler") == 1)
    }
}
