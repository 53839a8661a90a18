import Foundation
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
    /// or which reads differently to different parsers: `Tests/Fixtures/hostile-link-targets.json`, which the
    /// server's `LinksServingTests` sends over the wire too.
    static let hostile: [String] = HostileLinkTargets.all

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

/// The hostile targets of `Tests/Fixtures/hostile-link-targets.json`, read through the source tree.
enum HostileLinkTargets {
    struct File: Decodable {
        struct Group: Decodable { var urls: [String] }
        var groups: [Group]
    }

    static let all: [String] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile-link-targets.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else {
            return []
        }
        return file.groups.flatMap(\.urls)
    }()
}
