import Foundation
import Testing

@testable import RouteCore

/// Store URLs: the documented shapes, percent-encoding that survives a round trip, Apple's 40-byte campaign limit.
@Suite struct StoreLinksTests {
    @Test func appStoreWithCampaign() {
        #expect(
            StoreLinks.appStore(appStoreId: "351331194", campaign: "spring-sale")
                == "https://apps.apple.com/app/id351331194?ct=spring-sale&mt=8")
    }

    @Test func appStoreWithProviderToken() {
        #expect(
            StoreLinks.appStore(appStoreId: "351331194", campaign: "link Ab3x", providerToken: "118234")
                == "https://apps.apple.com/app/id351331194?pt=118234&ct=link%20Ab3x&mt=8")
    }

    @Test func appStoreAcceptsAnIdPrefix() {
        #expect(
            StoreLinks.appStore(appStoreId: "id351331194", campaign: "")
                == "https://apps.apple.com/app/id351331194?mt=8")
        // Not an "id" followed by digits: kept (and encoded) as given.
        #expect(StoreLinks.appStore(appStoreId: "idx", campaign: "").hasPrefix("https://apps.apple.com/app/ididx?"))
    }

    @Test func appStoreEncodesEverything() {
        let url = StoreLinks.appStore(appStoreId: "1/2?x", campaign: "a&b=c#d", providerToken: "p q")
        #expect(url == "https://apps.apple.com/app/id1%2F2%3Fx?pt=p%20q&ct=a%26b%3Dc%23d&mt=8")
        let items = URLComponents(string: url)?.queryItems ?? []
        #expect(items.first { $0.name == "ct" }?.value == "a&b=c#d")
        #expect(items.first { $0.name == "pt" }?.value == "p q")
    }

    @Test func campaignIsCutToFortyBytesOnACharacterBoundary() {
        let long = String(repeating: "c", count: 50)
        #expect(
            StoreLinks.appStore(appStoreId: "1", campaign: long).contains("ct=\(String(repeating: "c", count: 40))&"))
        // 39 ASCII bytes and a 2-byte "é": the "é" would make 41, so it goes.
        let accented = String(repeating: "a", count: 39) + "é"
        let url = StoreLinks.appStore(appStoreId: "1", campaign: accented)
        #expect(
            URLComponents(string: url)?.queryItems?.first { $0.name == "ct" }?.value
                == String(repeating: "a", count: 39))
        #expect(StoreLinks.truncated("ab", toBytes: 40) == "ab")
        #expect(StoreLinks.truncated(String(repeating: "🎉", count: 11), toBytes: 40).count == 10)
    }

    @Test func playStoreEncodesTheReferrerAsOneParameter() {
        let referrer = "utm_source=link&utm_campaign=spring sale/é+1"
        let url = StoreLinks.playStore(packageName: "com.badoo.mobile", referrer: referrer)
        #expect(
            url == "https://play.google.com/store/apps/details?id=com.badoo.mobile"
                + "&referrer=utm_source%3Dlink%26utm_campaign%3Dspring%20sale%2F%C3%A9%2B1")
        let items = URLComponents(string: url)?.queryItems ?? []
        #expect(items.map(\.name) == ["id", "referrer"])
        #expect(items.last?.value == referrer)
    }

    @Test func playStoreWithoutReferrer() {
        #expect(
            StoreLinks.playStore(packageName: "com.badoo.mobile", referrer: "")
                == "https://play.google.com/store/apps/details?id=com.badoo.mobile")
    }

    @Test(arguments: [
        ("", ""), ("AZaz09-._~", "AZaz09-._~"), (" ", "%20"), ("+", "%2B"), ("%", "%25"),
        ("/?#[]@!$&'()*,;=:", "%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2C%3B%3D%3A"),
        ("é", "%C3%A9"), ("日", "%E6%97%A5"), ("\u{0}\n", "%00%0A"),
    ])
    func percentEncoding(_ text: String, _ expected: String) {
        #expect(StoreLinks.percentEncode(text) == expected)
        #expect(expected.removingPercentEncoding == text)
    }
}
