import Foundation
import RegistryTesting
import Testing

/// Campaigns, tags and the disabled switch of short links (issue 45), against a real server over real HTTP:
/// the campaign reaches every web destination and both stores but never the deep link, `Links.List` filters by
/// tag and campaign, bad values are refused naming the field, and a disabled link answers 404 (counted as a
/// `disabled` miss) until switched on again.
@Suite(.serialized) struct LinkCampaignsTests {
    typealias Serving = LinksServingTests

    static var campaign: [String: Any] {
        [
            "source": "newsletter", "medium": "email", "campaign": "summer sale", "content": "hero&button",
        ]
    }

    /// The error's gRPC status (the schema's refusals come as -32602 with the same status) and its fields.
    static func error(_ response: [String: Any]) -> (status: String?, fields: [String]) {
        let data = (response["error"] as? [String: Any])?["data"] as? [String: Any]
        let details = data?["details"] as? [[String: Any]] ?? []
        return (data?["status"] as? String, details.compactMap { $0["field"] as? String })
    }

    @Test func theCampaignReachesEveryWebDestinationAndTheStoresButNeverTheDeepLink() async throws {
        let server = try TestRegistryServer(suite: "link_campaigns")
        defer { server.shutdown() }
        try await Serving.seed(server)
        _ = try await server.result(
            "Links.Create",
            [
                "app": "badoo",
                "link": [
                    "code": "summer", "target": "https://m.badoo.com/l/a/42",
                    "desktopUrl": "https://m.badoo.com/web?utm_source=kept&x=1#top", "utm": Self.campaign,
                ],
            ])
        let desktop = try Serving.visit(server, "/summer", agent: Serving.firefox)
        #expect(desktop.status == 302)
        // The URL's own utm_source stays; the rest is added before the fragment, each value encoded once.
        #expect(
            desktop.header("location")
                == "https://m.badoo.com/web?utm_source=kept&x=1&utm_medium=email&utm_campaign=summer%20sale"
                + "&utm_content=hero%26button#top")

        let ios = try Serving.visit(server, "/summer", agent: Serving.safari)
        #expect(ios.status == 200)
        // "Open in Badoo" is the deep link as written: the app's routes match its path and query.
        #expect(ios.text.contains(#"href="https://m.badoo.com/l/a/42">Open in Badoo"#), "\(ios.text)")
        #expect(ios.text.contains("ct=summer%20sale"))
        #expect(
            ios.text.contains(
                "https://m.badoo.com/l/a/42?ul_fallback=1&amp;utm_source=newsletter&amp;utm_medium=email"),
            "\(ios.text)")

        let android = try Serving.visit(server, "/summer", agent: Serving.chromeAndroid)
        #expect(
            android.text.contains(
                "referrer=utm_source%3Dnewsletter%26utm_medium%3Demail%26utm_campaign%3Dsummer%2520sale"
                    + "%26utm_content%3Dhero%2526button%26link%3Dgo.badoo.com%2Fsummer"), "\(android.text)")

        // A link skipping the landing page sends phones to the deep link itself, without the campaign.
        _ = try await server.result(
            "Links.Create",
            [
                "app": "badoo",
                "link": [
                    "code": "direct", "target": "https://m.badoo.com/l/a/7", "skipLanding": true,
                    "utm": ["campaign": "summer"],
                ],
            ])
        let direct = try Serving.visit(server, "/direct", agent: Serving.safari)
        #expect(direct.status == 302 && direct.header("location") == "https://m.badoo.com/l/a/7")
        let directDesktop = try Serving.visit(server, "/direct", agent: Serving.firefox)
        #expect(directDesktop.header("location") == "https://m.badoo.com/l/a/7?utm_campaign=summer")

        // Links.Get gives the campaign back as stored.
        let read = try await server.result("Links.Get", ["domain": "go.badoo.com", "code": "summer"])
        #expect((read["utm"] as? [String: Any])?["campaign"] as? String == "summer sale")
    }

    @Test func linksAreListedByTagAndCampaign() async throws {
        let server = try TestRegistryServer(suite: "link_tags")
        defer { server.shutdown() }
        try await Serving.seed(server)
        let links: [(String, [String], String?)] = [
            ("a1", ["promo", "q3"], "summer"), ("a2", ["promo"], "winter"), ("a3", ["support"], nil),
        ]
        for (code, tags, campaign) in links {
            var link: [String: Any] = ["code": code, "target": "https://m.badoo.com/u/\(code)", "tags": tags]
            if let campaign { link["utm"] = ["campaign": campaign] }
            _ = try await server.result("Links.Create", ["app": "badoo", "link": link])
        }
        func codes(_ filter: [String: Any]) async throws -> [String] {
            let page = try await server.result("Links.List", filter.merging(["app": "badoo"]) { a, _ in a })
            return (page["links"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
        #expect(try await codes(["tag": "promo"]) == ["a1", "a2"])
        #expect(try await codes(["campaign": "summer"]) == ["a1"])
        #expect(try await codes(["tag": "promo", "campaign": "winter"]) == ["a2"])
        #expect(try await codes(["tag": "none"]).isEmpty)
        #expect(try await codes([:]) == ["a1", "a2", "a3"])

        // A tag given twice is one tag; an empty campaign is none.
        let deduped = try await server.result(
            "Links.Create",
            [
                "app": "badoo",
                "link": ["code": "a4", "target": "https://m.badoo.com/u/4", "tags": ["x", "y", "x"], "utm": [:]],
            ])
        #expect(deduped["tags"] as? [String] == ["x", "y"])
        #expect(deduped["utm"] == nil)

        let badTag = try await server.call(
            "Links.Create",
            [
                "app": "badoo",
                "link": ["code": "b1", "target": "https://m.badoo.com/u/1", "tags": ["ok", "no spaces"]],
            ])
        #expect(
            Self.error(badTag).status == "INVALID_ARGUMENT" && Self.error(badTag).fields == ["link.tags[1]"],
            "\(badTag)")
        let control = try await server.call(
            "Links.Create",
            [
                "app": "badoo",
                "link": ["code": "b2", "target": "https://m.badoo.com/u/1", "utm": ["source": "a\u{7}b"]],
            ])
        #expect(
            Self.error(control).status == "INVALID_ARGUMENT" && Self.error(control).fields == ["link.utm.source"],
            "\(control)")
        let tooMany = try await server.call(
            "Links.Create",
            [
                "app": "badoo",
                "link": ["code": "b3", "target": "https://m.badoo.com/u/1", "tags": (0..<21).map { "t\($0)" }],
            ])
        #expect(
            Self.error(tooMany).status == "INVALID_ARGUMENT" && Self.error(tooMany).fields == ["link.tags"],
            "\(tooMany)")
        let badFilter = try await server.call("Links.List", ["tag": "no spaces"])
        #expect(
            Self.error(badFilter).status == "INVALID_ARGUMENT" && Self.error(badFilter).fields == ["tag"],
            "\(badFilter)")
        // Nothing refused was stored.
        #expect(try await codes([:]) == ["a1", "a2", "a3", "a4"])
    }

    @Test func aDisabledLinkAnswers404UntilSwitchedOnAgain() async throws {
        let server = try TestRegistryServer(suite: "link_disabled")
        defer { server.shutdown() }
        try await Serving.seed(server)
        let created = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "sale", "target": "https://m.badoo.com/l/a/1"]])
        #expect(try Serving.visit(server, "/sale", agent: Serving.firefox).status == 302)

        var link = created
        link["disabled"] = true
        let disabled = try await server.result("Links.Update", ["link": link, "etag": created["etag"] ?? ""])
        #expect(disabled["disabled"] as? Bool == true)
        #expect(disabled["expiresAt"] == nil, "disabling must not touch the expiry")
        for agent in [Serving.firefox, Serving.safari, Serving.slack] {
            let visit = try Serving.visit(server, "/sale", agent: agent)
            #expect(visit.status == 404 && visit.header("location") == nil, "\(agent)")
        }
        let resolved = try await server.call(
            "Links.Resolve", ["url": "https://go.badoo.com/sale", "platform": "ios", "version": "5.11.0"])
        #expect(Self.error(resolved).status == "NOT_FOUND")
        let stats = try await server.result("Links.Stats", ["domain": "go.badoo.com", "code": "sale"])
        let misses = stats["domainMisses"] as? [[String: Any]] ?? []
        #expect(misses.contains { $0["outcome"] as? String == "disabled" && $0["count"] as? Int == 3 }, "\(stats)")

        var again = disabled
        again["disabled"] = false
        let enabled = try await server.result("Links.Update", ["link": again, "etag": disabled["etag"] ?? ""])
        #expect(enabled["disabled"] == nil)
        #expect(try Serving.visit(server, "/sale", agent: Serving.firefox).status == 302)
    }
}
