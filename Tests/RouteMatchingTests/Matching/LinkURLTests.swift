import Testing

@testable import RouteMatching

@Suite struct LinkURLTests {
    @Test func keepsComponentsExactlyAsWritten() throws {
        let url = try #require(LinkURL("HTTPS://User:pw@Example.COM.:8443/caf%c3%A9//x/?a=%2F&b#frag?ment"))
        #expect(url.scheme == "https")
        #expect(url.host == "example.com")
        #expect(url.path == "/caf%c3%A9//x/")
        #expect(url.query == "a=%2F&b")
        #expect(url.fragment == "frag?ment")
    }

    @Test func distinguishesEmptyFromAbsentQueryAndFragment() throws {
        let bare = try #require(LinkURL("https://example.com/x"))
        #expect(bare.query == nil)
        #expect(bare.fragment == nil)
        let empty = try #require(LinkURL("https://example.com/x?#"))
        #expect(empty.query == "")
        #expect(empty.fragment == "")
    }

    @Test func parsesHostOnlyAndCustomSchemes() throws {
        let hostOnly = try #require(LinkURL("https://example.com"))
        #expect(hostOnly.host == "example.com")
        #expect(hostOnly.path == "")
        let custom = try #require(LinkURL("badoo://offer/1?x=2"))
        #expect(custom.scheme == "badoo")
        #expect(custom.host == "offer")
        #expect(custom.path == "/1")
        let opaque = try #require(LinkURL("mailto:someone@example.com"))
        #expect(opaque.host == "")
        #expect(opaque.path == "someone@example.com")
        let ipv6 = try #require(LinkURL("https://[::1]:8080/x"))
        #expect(ipv6.host == "[::1]")
    }

    @Test(arguments: ["", "example.com/x", "://x", "1http://x", "ht tp://x"])
    func refusesStringsWithoutAScheme(_ text: String) {
        #expect(LinkURL(text) == nil)
    }

    @Test func describesItselfBack() throws {
        let text = "https://example.com/a%20b?q=1#f"
        #expect(try #require(LinkURL(text)).description == text)
        let built = LinkURL(scheme: "HTTPS", host: "Example.com.", path: "/x", query: "", fragment: nil)
        #expect(built.description == "https://example.com/x?")
    }
}
