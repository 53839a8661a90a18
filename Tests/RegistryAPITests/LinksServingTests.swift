import Foundation
import RegistryTesting
import Testing

/// Short links against a real server and real HTTP: each visitor class on each outcome (crawler HTML with
/// escaped tags, the landing page with its store link and CSP, the desktop 302, 404 for unknown, expired and
/// deleted codes), hostile destinations refused at creation and never served, the effective minimum
/// version following the route's `since`, FDL long links, and clicks counted, flushed and surviving a
/// restart.
@Suite(.serialized) struct LinksServingTests {
    static let safari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
    static let chromeAndroid =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
    static let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
    static let slack = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"

    /// badoo with iOS 5.11.0 live, `m.badoo.com` and the link domain `go.badoo.com`.
    static func seed(_ server: TestRegistryServer) async throws {
        _ = try await server.result(
            "Apps.Create",
            [
                "app": [
                    "id": "badoo", "displayName": "Badoo",
                    "ios": ["appIds": ["ABCDE12345.com.badoo.Badoo"], "appStoreId": "351331194"],
                    "android": [
                        "packageName": "com.badoo.mobile",
                        "sha256CertFingerprints": [Array(repeating: "AB", count: 32).joined(separator: ":")],
                    ],
                ]
            ])
        _ = try await server.result("Domains.Create", ["domain": ["host": "m.badoo.com", "apps": ["badoo"]]])
        _ = try await server.result(
            "Domains.Create", ["domain": ["host": "go.badoo.com", "apps": ["badoo"], "links": true]])
        _ = try await server.result(
            "Routes.Create",
            [
                "app": "badoo",
                "route": [
                    "id": "lookalikes", "pattern": ["path": "/l/a/*"], "platforms": ["ios": ["since": "5.12.0"]],
                    "domains": ["m.badoo.com"],
                ],
            ])
        _ = try await server.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.11.0"])
    }

    static func visit(_ server: TestRegistryServer, _ path: String, agent: String) throws -> RawHTTPClient.Response {
        try RawHTTPClient(port: server.server.port).request(
            "GET", path, headers: [("Host", "go.badoo.com"), ("User-Agent", agent)])
    }

    @Test func eachVisitorGetsItsAnswer() async throws {
        let server = try TestRegistryServer(suite: "links_serving")
        defer { server.shutdown() }
        try await Self.seed(server)
        let created = try await server.result(
            "Links.Create",
            [
                "app": "badoo",
                "link": [
                    "code": "summer", "target": "https://m.badoo.com/l/a/42",
                    "preview": [
                        "title": #"Summer "deals" <script>alert(1)</script>"#, "description": "Tom & Jerry's",
                        "imageUrl": "https://cdn.example.com/i.png?a=1&b=2",
                    ],
                ],
            ])
        #expect(created["shortUrl"] as? String == "https://go.badoo.com/summer")
        #expect(created["name"] as? String == "domains/go.badoo.com/links/summer")
        #expect(created["createdBy"] as? String == "bootstrap-admin")

        let crawler = try Self.visit(server, "/summer", agent: Self.slack)
        #expect(crawler.status == 200)
        #expect(crawler.header("content-type") == "text/html; charset=utf-8")
        #expect(crawler.text.contains("og:title"))
        #expect(!crawler.text.contains("<script>"), "an unescaped value reached the page")
        #expect(crawler.text.contains("&lt;script&gt;"))
        #expect(crawler.text.contains("https://go.badoo.com/summer"))

        let landing = try Self.visit(server, "/summer", agent: Self.safari)
        #expect(landing.status == 200)
        #expect(landing.text.contains("https://m.badoo.com/l/a/42"))
        #expect(landing.text.contains("apps.apple.com"))
        #expect(!landing.text.contains("<script"))
        let policy = try #require(landing.header("content-security-policy"))
        #expect(policy.contains("default-src 'none'") && !policy.contains("unsafe-inline"))

        let android = try Self.visit(server, "/summer", agent: Self.chromeAndroid)
        #expect(android.status == 200)
        #expect(android.text.contains("play.google.com/store/apps/details?id=com.badoo.mobile"))

        let desktop = try Self.visit(server, "/summer", agent: Self.firefox)
        #expect(desktop.status == 302)
        #expect(desktop.header("location") == "https://m.badoo.com/l/a/42")

        // The link domain's short links are its own: another host does not serve them.
        let elsewhere = try RawHTTPClient(port: server.server.port).request(
            "GET", "/summer", headers: [("Host", "m.badoo.com"), ("User-Agent", Self.firefox)])
        #expect(elsewhere.status == 404)

        for agent in [Self.slack, Self.safari, Self.firefox] {
            let unknown = try Self.visit(server, "/winter", agent: agent)
            #expect(unknown.status == 404 && unknown.header("location") == nil)
        }

        _ = try await server.result(
            "Links.Create",
            [
                "app": "badoo",
                "link": ["code": "past", "target": "https://m.badoo.com/u/1", "expiresAt": "2020-01-01T00:00:00Z"],
            ])
        #expect(try Self.visit(server, "/past", agent: Self.firefox).status == 404)
        _ = try await server.result("Links.Delete", ["domain": "go.badoo.com", "code": "summer"])
        #expect(try Self.visit(server, "/summer", agent: Self.firefox).status == 404)
        #expect(try Self.visit(server, "/summer", agent: Self.slack).status == 404)
        // A deleted code is not handed out again.
        let again = try await server.call(
            "Links.Create", ["app": "badoo", "link": ["code": "summer", "target": "https://m.badoo.com/u/2"]])
        #expect((again["error"] as? [String: Any])?["code"] as? Int == 6)
    }

    /// The hostile targets of `Tests/Fixtures/hostile-link-targets.json` (RouteCore's `LinkDestinationsTests`
    /// checks them too) and the server's own: a link domain as a target, a look-alike host, a port.
    static let hostileTargets: [String] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hostile-link-targets.json")
        struct File: Decodable {
            struct Group: Decodable { var urls: [String] }
            var groups: [Group]
        }
        let shared = (try? JSONDecoder().decode(File.self, from: Data(contentsOf: url)))?.groups.flatMap(\.urls) ?? []
        let own = [
            "https://evil.example/x",
            "https://m.badoo.com.evil.example/",
            "https://evil.example@m.badoo.com/",
            "https://evil%2Eexample/",
            "https://evil\u{3002}example/",
            "http://m.badoo.com/u/1",
            "https://m.badoo.com%0d%0aLocation:evil/",
            "https://go.badoo.com/summer",
            "https://m.b\u{430}doo.com/u/1",
            "https://m.badoo.com:8443/u/1",
            " https://m.badoo.com/u/1",
            "https://m.badoo.com/u/1\r\nSet-Cookie:x",
        ]
        return own + shared.filter { !own.contains($0) }
    }()

    /// The open-redirect guard over the API and the wire: each target refused naming `link.target`, and
    /// nothing served for its code.
    @Test func theProviderTokenGoesWithTheCampaignToTheAppStore() async throws {
        let server = try TestRegistryServer(suite: "links_provider_token")
        defer { server.shutdown() }
        try await Self.seed(server)
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "spring", "target": "https://m.badoo.com/l/a/42"]])
        #expect(!(try Self.visit(server, "/spring", agent: Self.safari).text.contains("pt=")))

        var app = try await server.result("Apps.Get", ["app": "badoo"])
        for output in ["name", "etag", "createTime", "updateTime", "aasaBudget"] { app[output] = nil }
        var ios = try #require(app["ios"] as? [String: Any])
        ios["appStoreProviderToken"] = "12x"
        app["ios"] = ios
        let refused = try await server.call("Apps.Update", ["app": app])
        let error = try #require(refused["error"] as? [String: Any], "a provider token of letters was accepted")
        let details = (error["data"] as? [String: Any])?["details"] as? [[String: Any]] ?? []
        #expect(details.contains { $0["field"] as? String == "app.ios.appStoreProviderToken" }, "\(error)")

        ios["appStoreProviderToken"] = "118234"
        app["ios"] = ios
        let updated = try await server.result("Apps.Update", ["app": app])
        #expect((updated["ios"] as? [String: Any])?["appStoreProviderToken"] as? String == "118234")
        let landing = try Self.visit(server, "/spring", agent: Self.safari)
        #expect(landing.text.contains("apps.apple.com/app/id351331194?pt=118234&amp;ct="), "\(landing.text)")
    }

    @Test func hostileTargetsAreRefusedAndNeverServed() async throws {
        #expect(Self.hostileTargets.count >= 40)
        let server = try TestRegistryServer(suite: "links_hostile")
        defer { server.shutdown() }
        try await Self.seed(server)
        for (index, target) in Self.hostileTargets.enumerated() {
            let refused = try await server.call(
                "Links.Create", ["app": "badoo", "link": ["code": "x\(index)", "target": target]])
            let error = try #require(refused["error"] as? [String: Any], "\(target) was accepted")
            #expect(error["code"] as? Int == 3 || error["code"] as? Int == -32602, "\(target): \(error)")
            let details = (error["data"] as? [String: Any])?["details"] as? [[String: Any]] ?? []
            #expect(details.contains { ($0["field"] as? String)?.hasPrefix("link.target") == true }, "\(error)")
            for agent in [Self.safari, Self.firefox, Self.slack] {
                let visit = try Self.visit(server, "/x\(index)", agent: agent)
                #expect(visit.status == 404 && visit.header("location") == nil)
            }
        }
    }

    @Test func theMinimumVersionFollowsTheRouteAndTheLink() async throws {
        let server = try TestRegistryServer(suite: "links_resolve")
        defer { server.shutdown() }
        try await Self.seed(server)
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "lk", "target": "https://m.badoo.com/l/a/7"]])
        func resolve(_ version: String) async throws -> [String: Any] {
            try await server.result(
                "Links.Resolve", ["url": "https://go.badoo.com/lk", "platform": "ios", "version": version], token: nil)
        }
        let old = try await resolve("5.11.0")
        #expect(old["route"] as? String == "lookalikes")
        #expect(old["minVersion"] as? String == "5.12.0" && old["minVersionSource"] as? String == "route")
        let decision = try #require(old["decision"] as? [String: Any])
        #expect(decision["reason"] as? String == "unsupported_version")
        #expect(decision["supportedSince"] as? String == "5.12.0")
        #expect((try await resolve("5.12.0")["decision"] as? [String: Any])?["decision"] as? String == "open_in_app")

        // The route's since moves: the link follows, with no change to the link.
        let route = try await server.result("Routes.Get", ["app": "badoo", "route": "lookalikes"])
        var updated = route
        updated["platforms"] = ["ios": ["since": "5.13.0"]]
        for key in ["name", "etag", "createTime", "updateTime", "app", "position"] { updated[key] = nil }
        _ = try await server.result("Routes.Update", ["app": "badoo", "route": updated])
        #expect(try await resolve("5.12.0")["minVersion"] as? String == "5.13.0")

        // A link asking for more than the route: its own minimum, and why.
        _ = try await server.result(
            "Links.Create",
            [
                "app": "badoo",
                "link": ["code": "strict", "target": "https://m.badoo.com/l/a/8", "ios": ["minVersion": "6.0"]],
            ])
        let strict = try await server.result(
            "Links.Resolve", ["url": "https://go.badoo.com/strict", "platform": "ios", "version": "5.13.0"], token: nil)
        #expect(strict["minVersion"] as? String == "6.0.0" && strict["minVersionSource"] as? String == "link")
        let refused = try #require(strict["decision"] as? [String: Any])
        #expect(refused["decision"] as? String == "open_in_browser")
        #expect(refused["supportedSince"] as? String == "6.0.0")
    }

    @Test func longLinksOnlyForTheAppsOwnDomains() async throws {
        let server = try TestRegistryServer(suite: "links_fdl")
        defer { server.shutdown() }
        try await Self.seed(server)
        let good = "/?link=https%3A%2F%2Fm.badoo.com%2Fl%2Fa%2F9&isi=351331194&ibi=com.badoo.Badoo&efr=1&st=Hello"
        let direct = try Self.visit(server, good, agent: Self.safari)
        #expect(direct.status == 302)
        #expect(direct.header("location") == "https://m.badoo.com/l/a/9")
        let preview = try Self.visit(server, good, agent: Self.slack)
        // The link's own title (`st`) is a stranger's words: not shown unless the domain turns previews on.
        #expect(preview.status == 200 && preview.text.contains("og:title") && !preview.text.contains("Hello"))
        let evil = try Self.visit(server, "/?link=https%3A%2F%2Fevil.example%2F&efr=1", agent: Self.safari)
        #expect(evil.status == 404 && evil.header("location") == nil)
    }

    @Test func anotherServerServesANewLinkWithinASecond() async throws {
        let first = try TestRegistryServer(suite: "links_fleet")
        defer { first.shutdown() }
        let second = try TestRegistryServer(suite: "links_fleet", database: first.database)
        defer { second.stop() }
        try await Self.seed(first)
        _ = try await first.result(
            "Links.Create", ["app": "badoo", "link": ["code": "fleet", "target": "https://m.badoo.com/u/3"]])
        let deadline = ContinuousClock.now + .seconds(5)
        var status = 0
        while ContinuousClock.now < deadline {
            status = try Self.visit(second, "/fleet", agent: Self.firefox).status
            if status == 302 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(status == 302, "the second server never served the link")
        // The second server took the link write without a full load: only the snapshot's state moved, so
        // the tables it computed are still the ones it serves.
        let tables = second.service.snapshot.canOpenTables
        let generation = second.service.snapshot.generation
        _ = try await first.result("Links.Create", ["app": "badoo", "link": ["target": "https://m.badoo.com/u/4"]])
        while ContinuousClock.now < deadline && second.service.snapshot.generation == generation {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(second.service.snapshot.generation > generation)
        #expect(second.service.snapshot.canOpenTables === tables, "a link write made the second server reload")
        _ = try await first.result("Links.Delete", ["domain": "go.badoo.com", "code": "fleet"])
        var gone = false
        while ContinuousClock.now < deadline + .seconds(5) && !gone {
            gone = try Self.visit(second, "/fleet", agent: Self.firefox).status == 404
            if !gone { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(gone, "the second server kept serving a deleted link")
    }

    @Test func clicksAreCountedFlushedAndSurviveARestart() async throws {
        let server = try TestRegistryServer(suite: "links_clicks")
        try await Self.seed(server)
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "count", "target": "https://m.badoo.com/u/1"]])
        for _ in 0..<3 { _ = try Self.visit(server, "/count", agent: Self.safari) }
        for _ in 0..<2 { _ = try Self.visit(server, "/count", agent: Self.firefox) }
        _ = try Self.visit(server, "/count", agent: Self.slack)
        // Counted at once (the counts not flushed yet are included)...
        let stats = try await server.result("Links.Stats", ["domain": "go.badoo.com", "code": "count"])
        #expect(stats["total"] as? Int == 6)
        let counts = try #require(stats["counts"] as? [[String: Any]])
        func count(_ platform: String, _ outcome: String) -> Int? {
            counts.first { $0["platform"] as? String == platform && $0["outcome"] as? String == outcome }?["count"]
                as? Int
        }
        #expect(count("ios", "landing") == 3 && count("desktop", "redirect") == 2 && count("crawler", "crawler") == 1)
        // ...and written by a graceful stop: a second server on the same database reads them.
        server.stop()
        let second = try TestRegistryServer(suite: "links_clicks", database: server.database)
        defer { second.shutdown() }
        let kept = try await second.result("Links.Stats", ["domain": "go.badoo.com", "code": "count"])
        #expect(kept["total"] as? Int == 6)
        // The link itself is served by the new server from its index, loaded at start.
        #expect(try Self.visit(second, "/count", agent: Self.firefox).status == 302)
    }
}
