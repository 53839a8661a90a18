import Foundation
import RegistryService
import RegistryTesting
import RouteStore
import Testing

/// Issue 41, the anonymous visitor's rows, against the real server: badoo with its link domain
/// `go.badoo.com`, and a second app `rt` whose admin and releaser tokens are scoped to `rt`.
///
/// - GETs of unknown 3–7 KB codes write no row holding their text: they are counted per domain, day and
///   outcome (and in `routereg_link_misses_total`), and click rows older than the retention are deleted.
/// - A long link's social title, description and image (`st`, `sd`, `si`) are not shown on the company's
///   domain unless its owner turned `longLinkPreviews` on, and then marked as supplied by the link.
@Suite(.serialized) struct TenantIsolationVisitorsTests {
    static let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
    static let safari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
    static let slack = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"

    /// badoo (m.badoo.com, the link domain go.badoo.com, one link) and rt (rt.example.com) with an admin and a
    /// releaser token scoped to rt.
    static func seed(_ server: TestRegistryServer, linkDomain: [String: Any] = [:]) async throws {
        _ = try await server.result(
            "Apps.Create",
            ["app": ["id": "badoo", "displayName": "Badoo", "ios": ["appIds": ["ABCDE12345.com.badoo.Badoo"]]]])
        _ = try await server.result("Apps.Create", ["app": ["id": "rt", "ios": ["appIds": ["FGHIJ67890.com.rt.RT"]]]])
        _ = try await server.result("Domains.Create", ["domain": ["host": "m.badoo.com", "apps": ["badoo"]]])
        _ = try await server.result("Domains.Create", ["domain": ["host": "rt.example.com", "apps": ["rt"]]])
        _ = try await server.result(
            "Domains.Create",
            ["domain": ["host": "go.badoo.com", "apps": ["badoo"], "links": true].merging(linkDomain) { $1 }])
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "known", "target": "https://m.badoo.com/u/1"]])
        for role in ["admin", "releaser"] {
            _ = try await server.result(
                "Tokens.Create", ["token": ["displayName": "rt \(role)", "role": role, "apps": ["rt"]]])
        }
    }

    static func rows(_ server: TestRegistryServer, _ sql: SQLQuery) throws -> Int {
        try server.service.store.read { tx in try tx.query(sql).first?.int("n") ?? -1 }
    }

    static func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    @Test("20 GETs of unknown 3-7 KB codes: no link_clicks row, a count per domain and day")
    func unknownCodesAreCountedNotStored() async throws {
        let server = try TestRegistryServer(suite: "tenant_visitors_misses")
        defer { server.shutdown() }
        try await Self.seed(server)
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "gone", "target": "https://m.badoo.com/u/2"]])
        _ = try await server.result("Links.Delete", ["domain": "go.badoo.com", "code": "gone"])
        server.service.flushClicks(deadline: .now + .seconds(5))
        let before = try Self.rows(server, "SELECT count(*)::int AS n FROM link_clicks")

        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<20 {
            let length = Int.random(in: 3_000...7_000, using: &generator)
            let code = String((0..<length).map { _ in letters.randomElement(using: &generator)! })
            let (_, response) = try await server.visit("/\(code)", host: "go.badoo.com", userAgent: Self.firefox)
            #expect(response.statusCode == 404)
        }
        _ = try await server.visit("/gone", host: "go.badoo.com", userAgent: Self.firefox)
        let (_, known) = try await server.visit("/known", host: "go.badoo.com", userAgent: Self.firefox)
        #expect(known.statusCode == 302)
        server.service.flushClicks(deadline: .now + .seconds(5))

        // One new click row: the known link's. None holds what a visitor typed.
        #expect(try Self.rows(server, "SELECT count(*)::int AS n FROM link_clicks") == before + 1)
        #expect(try Self.rows(server, "SELECT count(*)::int AS n FROM link_clicks WHERE code <> 'known'") == 0)
        let misses = try server.service.store.read { tx in
            try server.service.store.misses.counts(domain: "go.badoo.com", in: tx)
        }
        let byOutcome = Dictionary(uniqueKeysWithValues: misses.map { ($0.key.outcome, $0.count) })
        #expect(byOutcome == ["unknown": 20, "deleted": 1])
        #expect(misses.allSatisfy { $0.key.day == Self.today() })
        let totals = Dictionary(
            uniqueKeysWithValues: server.service.clicks.missTotalsByOutcome.map { ($0.outcome, $0.count) })
        #expect(totals["unknown"] == 20 && totals["deleted"] == 1)
        // The known link's clicks are counted as before.
        let stats = try await server.result("Links.Stats", ["domain": "go.badoo.com", "code": "known"])
        #expect(stats["total"] as? Int == 1)
        // A release engineer sees the domain's misses beside the link's clicks: counts by why, no codes.
        let shown = try #require(stats["domainMisses"] as? [[String: Any]])
        #expect(
            Set(shown.map { "\($0["day"] ?? "") \($0["outcome"] ?? "") \($0["count"] ?? "")" })
                == ["\(Self.today()) unknown 20", "\(Self.today()) deleted 1"])
    }

    @Test("click and miss rows older than the retention are deleted by the server")
    func oldClickRowsAreDeleted() async throws {
        let server = try TestRegistryServer(
            suite: "tenant_visitors_retention",
            runtime: RegistryRuntime.Options(clickRetentionDays: 30, clickPruneInterval: .seconds(1)))
        defer { server.shutdown() }
        try await Self.seed(server)
        let old = Date().addingTimeInterval(-31 * 86_400)
        let recent = Date().addingTimeInterval(-29 * 86_400)
        for date in [old, recent] {
            let day = ISO8601DateFormatter.string(
                from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            try server.service.store.addClicks(
                [ClickKey(domain: "go.badoo.com", code: "known", day: day, platform: "ios", outcome: "landing"): 5],
                misses: [LinkMissKey(domain: "go.badoo.com", day: day, outcome: "unknown"): 9])
        }
        let deadline = ContinuousClock.now + .seconds(10)
        var left = -1
        while ContinuousClock.now < deadline {
            left = try Self.rows(
                server, "SELECT (SELECT count(*) FROM link_clicks) + (SELECT count(*) FROM link_misses) AS n")
            if left == 2 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(left == 2, "the rows older than 30 days were not deleted")
        let stats = try await server.result("Links.Stats", ["domain": "go.badoo.com", "code": "known"])
        #expect(stats["total"] as? Int == 5)
    }

    /// The issue's long link: a stranger's title and image on the company's domain.
    static let strangersLongLink =
        "/?link=https%3A%2F%2Fm.badoo.com%2Fu%2F42&st=Security%20alert%3A%20verify%20your%20account"
        + "&sd=Sign%20in%20again&si=https%3A%2F%2Fattacker.example%2Flogo.png"

    @Test("a long link's st/sd/si are not shown on the company's domain by default")
    func longLinkPreviewsAreOffByDefault() async throws {
        let server = try TestRegistryServer(suite: "tenant_visitors_fdl_off")
        defer { server.shutdown() }
        try await Self.seed(server)
        for agent in [Self.slack, Self.safari] {
            let (data, response) = try await server.visit(
                Self.strangersLongLink, host: "go.badoo.com", userAgent: agent)
            let page = String(decoding: data, as: UTF8.self)
            #expect(response.statusCode == 200)
            // Not in the text, nor in og:url (the link's query without the preview), in any spelling.
            for words in ["Security", "Sign", "attacker"] { #expect(!page.contains(words), "\(agent): \(page)") }
            #expect(page.contains("Badoo"))
        }
        // The link itself still works: it is one of the app's own URLs.
        let (landing, _) = try await server.visit(Self.strangersLongLink, host: "go.badoo.com", userAgent: Self.safari)
        #expect(
            String(decoding: landing, as: UTF8.self).contains(#"<a href="https://m.badoo.com/u/42">Open in Badoo</a>"#))
        // The link's own URL outside the app's domains is still refused, and counted as a miss.
        let (_, refused) = try await server.visit(
            "/?link=https%3A%2F%2Fattacker.example%2F&st=x", host: "go.badoo.com", userAgent: Self.safari)
        #expect(refused.statusCode == 404)
        #expect(server.service.clicks.missTotalsByOutcome.first { $0.outcome == "refused" }?.count == 1)
    }

    @Test("with longLinkPreviews on, the preview is shown marked as the link's, its image only from the app's domains")
    func longLinkPreviewsWhenTheOwnerTurnsThemOn() async throws {
        let server = try TestRegistryServer(suite: "tenant_visitors_fdl_on")
        defer { server.shutdown() }
        try await Self.seed(server, linkDomain: ["longLinkPreviews": true])
        let domain = try await server.result("Domains.Get", ["host": "go.badoo.com"])
        #expect(domain["longLinkPreviews"] as? Bool == true)
        let (data, response) = try await server.visit(
            Self.strangersLongLink, host: "go.badoo.com", userAgent: Self.slack)
        let page = String(decoding: data, as: UTF8.self)
        #expect(response.statusCode == 200)
        #expect(page.contains(#"<meta property="og:title" content="Security alert: verify your account">"#))
        #expect(page.contains("Preview supplied by the link, not by Badoo: Sign in again"))
        #expect(!page.contains("attacker"), "an image from a stranger's host: \(page)")
        let own = Self.strangersLongLink.replacingOccurrences(
            of: "attacker.example", with: "m.badoo.com")
        let (ownData, _) = try await server.visit(own, host: "go.badoo.com", userAgent: Self.slack)
        #expect(String(decoding: ownData, as: UTF8.self).contains(#"content="https://m.badoo.com/logo.png""#))
        let (landing, _) = try await server.visit(Self.strangersLongLink, host: "go.badoo.com", userAgent: Self.safari)
        #expect(
            String(decoding: landing, as: UTF8.self).contains(
                "<small>Preview supplied by the link, not by Badoo.</small>"))

        // The setting belongs to link domains only.
        let plain = try await server.call(
            "Domains.Create", ["domain": ["host": "x.badoo.com", "apps": ["badoo"], "longLinkPreviews": true]])
        #expect((plain["error"] as? [String: Any])?["code"] as? Int == 3)
        #expect("\(plain)".contains("domain.longLinkPreviews"))
    }
}
