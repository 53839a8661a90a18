import Foundation
import Testing

@testable import RouteCore

/// `ShortLinkURL`: the URL a QR code encodes is the short URL plus the scan marker, and a visit by that URL is
/// recognised as a scan while one by the short URL is not.
@Suite struct ShortLinkURLTests {
    @Test(arguments: [("go.badoo.com", "summer"), ("links.example.org", "Ab_9-zZ"), ("l.example.com", "x")])
    func scanURLIsTheShortURLMarkedAsAScan(domain: String, code: String) throws {
        let short = ShortLinkURL.short(domain: domain, code: code)
        let scan = ShortLinkURL.scan(domain: domain, code: code)
        #expect(scan.hasPrefix(short + "?"))
        let parts = try #require(URLComponents(string: scan))
        #expect(parts.scheme == "https")
        #expect(parts.host == domain)
        #expect(parts.path == "/" + code)
        let items = try #require(parts.queryItems)
        #expect(items.count == 1)
        #expect(items.first?.name == ShortLinkURL.scanQueryItem)
        #expect(ShortLinkURL.isScan(queryValue: items.first?.value))
        // The short URL itself carries no marker: a tap on it is not a scan.
        #expect(URLComponents(string: short)?.queryItems == nil)
    }

    @Test func onlyTheMarkerValueIsAScan() {
        #expect(!ShortLinkURL.isScan(queryValue: nil))
        #expect(!ShortLinkURL.isScan(queryValue: ""))
        #expect(!ShortLinkURL.isScan(queryValue: "0"))
        #expect(!ShortLinkURL.isScan(queryValue: "yes"))
    }
}
