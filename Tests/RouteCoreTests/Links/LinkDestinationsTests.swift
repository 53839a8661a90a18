import Testing

@testable import RouteCore

@Suite struct LinkDestinationsTests {
    /// The app's own domains and one partner host an admin allowed.
    static let destinations = LinkDestinations(
        appHosts: ["m.badoo.com", "badoo.com"], allowedHosts: ["help.partner.example"])

    /// The error `check` throws for `url`, or nil when it accepts it.
    static func refusal(
        _ url: String, field: String = "link.target", allowStores: Bool = true
    ) -> RegistryError? {
        do {
            _ = try destinations.check(url, field: field, allowStores: allowStores)
            return nil
        } catch {
            return error
        }
    }

    /// Open-redirect attempts, each of which a browser (or another reader on the way) would send off our hosts,
    /// or which reads differently to different parsers.
    static let hostile: [String] = [
        // Not https, in any case or disguise.
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "javascript://m.badoo.com/%0Aalert(1)",
        "data:text/html,<script>alert(1)</script>",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "vbscript:msgbox(1)",
        "VBScript:msgbox(1)",
        "file:///etc/passwd",
        "FILE://m.badoo.com/etc/passwd",
        "http://m.badoo.com/x",
        "ftp://m.badoo.com/x",
        "intent://evil.example#Intent;scheme=https;end",
        "blob:https://m.badoo.com/0b4e5f36",
        "badoo://offer/1",
        "ht\ttps://evil.example",
        "java\nscript:alert(1)",
        "jav\tascript:alert(1)",
        // Not absolute, or the slashes browsers repair.
        "",
        "//evil.example",
        "///evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "evil.example",
        "m.badoo.com/x",
        "https:/evil.example",
        "https:evil.example",
        "https:///evil.example",
        "https:////evil.example",
        "https:\\\\evil.example",
        "https:/\\evil.example",
        "https://",
        "https://?x=1",
        // User info: browsers go to the host after the @.
        "https://evil.example@m.badoo.com",
        "https://m.badoo.com@evil.example",
        "https://m.badoo.com:443@evil.example",
        "https://apps.apple.com@evil.example",
        "https://user:password@m.badoo.com/",
        "https://m.badoo.com%2F@evil.example",
        "https://m.badoo.com\\@evil.example",
        "https://evil.example\\.m.badoo.com",
        // A host that merely starts with, ends with or contains ours.
        "https://m.badoo.com.evil.example",
        "https://play.google.com.evil.example",
        "https://evil.example/m.badoo.com",
        "https://evil.example?.m.badoo.com",
        "https://evil.example#.m.badoo.com",
        "https://evilm.badoo.com",
        "https://evil.badoo.com",
        "https://m-badoo.com",
        "https://badoo.co",
        // Encoded or Unicode characters in the host.
        "https://evil%2Eexample",
        "https://m.badoo.com%2Eevil.example",
        "https://m.badoo.com%0d%0aLocation:evil",
        "https://m.badoo.com%00.evil.example",
        "https://m.badoo.com%E3%80%82evil.example",
        "https://evil。example",
        "https://evil．example",
        "https://evil｡example",
        "https://m.bаdoo.com",
        "https://m.xn--bdoo-53d.com",
        "https://xn--pple-43d.com",
        "https://m.badoo.com\u{200B}.evil.example",
        "https://ｍ.badoo.com",
        "https://M.BADOO.COM",
        "HTTPS://EVIL.EXAMPLE",
        "https://m.badoo.com.",
        "https://m..badoo.com",
        "https://.m.badoo.com",
        "https://-m.badoo.com",
        "https://m_badoo.com",
        // IP addresses, however written.
        "https://127.0.0.1/",
        "https://2130706433/",
        "https://0x7f.1/",
        "https://[::1]/",
        "https://[::ffff:7f00:1]/",
        // Ports.
        "https://m.badoo.com:8443/x",
        "https://m.badoo.com:/x",
        "https://m.badoo.com:0443/x",
        "https://m.badoo.com:443.evil.example",
        "https://m.badoo.com:65979/x",
        // Spaces, controls and line breaks anywhere.
        " https://m.badoo.com/",
        "https://m.badoo.com/ ",
        "https://m.badoo.com/\r\nLocation: https://evil.example",
        "https://m.badoo.com/\nx",
        "https://m.badoo.com/a b",
        "\u{0}https://m.badoo.com/",
        "https://m.badoo.com/\u{7F}",
        "https://m.badoo.com\t.evil.example",
        // Characters no reader agrees on, and broken escapes.
        "https://m.badoo.com/\"><script>alert(1)</script>",
        "https://m.badoo.com/{x}",
        "https://m.badoo.com/%zz",
        "https://m.badoo.com/%",
        "https://m.badoo.com/#\\evil",
        "https://m.badoo.com/caf\u{E9}",
    ]

    @Test(arguments: hostile)
    func refusesHostileDestinations(_ url: String) throws {
        let error = try #require(Self.refusal(url), "accepted \(url.debugDescription)")
        #expect(error.code == .invalidArgument)
        #expect(error.fieldViolations.map(\.field) == ["link.target"])
        #expect(error.fieldViolations.allSatisfy { !$0.description.isEmpty })
        #expect(error.message.hasPrefix("link.target: "))
        #expect(LinkDestinations.host(of: url).map { Self.destinations.appHosts.contains($0) } != true)
    }

    @Test func hostileListIsLargeAndDistinct() {
        #expect(Self.hostile.count >= 45)
        #expect(Set(Self.hostile).count == Self.hostile.count)
    }

    /// Destinations on our hosts, a store or an allowed host, with the paths, queries and fragments real links have.
    static let good: [String] = [
        "https://m.badoo.com",
        "https://m.badoo.com/",
        "https://badoo.com/profile/42",
        "HTTPS://m.badoo.com/x",
        "https://m.badoo.com:443/x",
        "https://m.badoo.com/offer/1?utm_source=fdl&utm_medium=share#top",
        "https://m.badoo.com/caf%C3%A9/%2F..%2Fx?q=a%20b+c&e=%E2%9C%93",
        "https://m.badoo.com?x=1",
        "https://m.badoo.com#x",
        "https://m.badoo.com/path@evil.example",
        "https://m.badoo.com/?next=https://evil.example",
        "https://m.badoo.com?@evil.example",
        "https://m.badoo.com/x?text=line%0Aother",
        "https://m.badoo.com/a;b,c/(d)*!$'~[e]=f",
        "https://help.partner.example/faq",
        "https://apps.apple.com/app/id351331194",
        "https://itunes.apple.com/app/id351331194?mt=8",
        "https://play.google.com/store/apps/details?id=com.badoo.mobile&hl=en",
    ]

    @Test(arguments: good)
    func acceptsDestinationsOnListedHosts(_ url: String) throws {
        #expect(try Self.destinations.check(url, field: "link.target") == url)
    }

    @Test func readsTheHostAsABrowserWould() {
        #expect(LinkDestinations.host(of: "https://m.badoo.com:443/path@evil.example?@x#@y") == "m.badoo.com")
        #expect(LinkDestinations.host(of: "HTTPS://evil.example/x") == "evil.example")
        #expect(LinkDestinations.host(of: "https://evil.example@m.badoo.com") == nil)
        #expect(LinkDestinations.host(of: "https:evil.example") == nil)
        #expect(LinkDestinations.host(of: "https://a.b.0x7g") == "a.b.0x7g")
    }

    @Test func namesTheFieldItWasGiven() throws {
        let error = try #require(Self.refusal("https://evil.example", field: "link.ios.fallbackUrl"))
        #expect(error.code == .invalidArgument)
        #expect(error.fieldViolations.map(\.field) == ["link.ios.fallbackUrl"])
        #expect(error.message.hasPrefix("link.ios.fallbackUrl: "))
    }

    @Test func refusesStoresWhenTheyAreNotAllowed() throws {
        let error = try #require(
            Self.refusal("https://apps.apple.com/app/id351331194", field: "link.desktopUrl", allowStores: false))
        #expect(error.fieldViolations.map(\.field) == ["link.desktopUrl"])
        #expect(error.fieldViolations.first?.description.contains("apps.apple.com") == true)
        #expect(Self.refusal("https://m.badoo.com/x", allowStores: false) == nil)
        #expect(Self.refusal("https://help.partner.example/x", allowStores: false) == nil)
    }

    @Test func listedSubdomainsOnly() {
        let destinations = LinkDestinations(appHosts: ["badoo.com"])
        #expect(throws: RegistryError.self) { try destinations.check("https://m.badoo.com/", field: "link.target") }
        #expect(throws: Never.self) { try destinations.check("https://badoo.com/", field: "link.target") }
    }

    /// The reason says which rule failed, and echoes only text that passed the syntax rules.
    @Test(arguments: [
        ("https://evil.example@m.badoo.com", "user info"),
        ("https://m.badoo.com.evil.example", "host m.badoo.com.evil.example is not one of"),
        ("javascript:alert(1)", "must use https, not javascript"),
        ("http://m.badoo.com", "must use https, not http"),
        ("//evil.example", "absolute https:// URL"),
        ("https:evil.example", "exactly https://"),
        ("https://evil%2Eexample", "percent-encoded"),
        ("https://m.badoo.com%0d%0aLocation:evil", "percent-encoded"),
        ("https://evil。example", "must be ASCII"),
        ("https://m.xn--bdoo-53d.com", "internationalised"),
        ("https://m.badoo.com:8443/x", "port"),
        ("https://m.badoo.com\\@evil.example", "backslash"),
        ("ht\ttps://evil.example", "control characters"),
        ("https://M.badoo.com", "lower case"),
        ("https://m.badoo.com.", "end the host with a dot"),
        ("https://0x7f.1", "IP address"),
        ("https://m.badoo.com/<x>", "must not contain < unencoded"),
    ])
    func explainsWhy(_ url: String, _ reason: String) throws {
        let error = try #require(Self.refusal(url))
        let description = try #require(error.fieldViolations.first?.description)
        #expect(description.contains(reason), "\(description)")
    }

    @Test func refusesOverlongDestinations() {
        let long = "https://m.badoo.com/" + String(repeating: "a", count: LinkDestinations.maxLength)
        #expect(Self.refusal(long) != nil)
        let fits = "https://m.badoo.com/" + String(repeating: "a", count: LinkDestinations.maxLength - 20)
        #expect(Self.refusal(fits) == nil)
    }
}
