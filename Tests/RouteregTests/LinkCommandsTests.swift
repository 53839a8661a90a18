import Foundation
import RegistryTesting
import Testing

/// `routereg domain add --links` and `routereg link …` through the built binary against a real server: the
/// short URL on the last line, the server's refusal as the message and a non-zero exit, an import of 1,000
/// FDL links keeping their codes, and the link domain's AASA claiming the link paths once a version that
/// resolves short links is live.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct LinkCommandsTests {
    @Test func linksFromTheCommandLine() async throws {
        let server = try TestRegistryServer(suite: "routereg_links")
        defer { server.shutdown() }
        let session = ReleaseDayTests.Session(server: server)
        try await session.ok([
            "app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo", "--app-store-id", "351331194",
            "--android-package", "com.badoo.mobile", "--android-fingerprint",
            Array(repeating: "AB", count: 32).joined(separator: ":"),
        ])
        try await session.ok(["domain", "add", "m.badoo.com", "--app", "badoo"])
        let added = try await session.ok([
            "domain", "add", "go.badoo.com", "--app", "badoo", "--links", "--since", "ios=5.12", "--since",
            "android=51200",
        ])
        #expect(added.contains("apps/badoo/routes/links-go-badoo-com"), "\(added)")
        try await session.ok([
            "route", "add", "badoo", "profile", "/u/*", "--since", "ios=5.0", "--domain", "m.badoo.com",
        ])

        let created = try await session.ok([
            "link", "create", "badoo", "https://m.badoo.com/u/7", "--code", "summer", "--title", "Summer",
            "--ios-min", "5.12", "--expires", "2099-12-31",
        ])
        #expect(created.split(separator: "\n").last == "https://go.badoo.com/summer", "\(created)")
        let drawn = try await session.ok(["link", "create", "badoo", "https://m.badoo.com/u/8"])
        let drawnURL = try #require(drawn.split(separator: "\n").last.map(String.init))
        #expect(drawnURL.hasPrefix("https://go.badoo.com/") && drawnURL.count == "https://go.badoo.com/".count + 7)

        let refused = try await session.run(["link", "create", "badoo", "https://evil.example/x"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("link.target"), "\(refused.stderr)")

        let shown = try await session.ok(["link", "get", "go.badoo.com", "summer"])
        #expect(shown.contains("target: https://m.badoo.com/u/7") && shown.contains("ios minimum: 5.12.0"))
        #expect(try await session.ok(["link", "list", "--text", "summer"]).contains("https://go.badoo.com/summer"))
        #expect(try await session.ok(["link", "stats", "go.badoo.com", "summer"]).contains("No clicks"))
        // Visits that found no link show as a count by why, beside the link's clicks; never the codes typed.
        for code in ["guess1", "guess2"] {
            _ = try await server.visit("/\(code)", host: "go.badoo.com", userAgent: "curl/8")
        }
        let withMisses = try await session.ok(["link", "stats", "go.badoo.com", "summer"])
        #expect(
            withMisses.contains("2 visit(s) to go.badoo.com found no link in the last 30 days (unknown 2)"),
            "\(withMisses)")
        #expect(!withMisses.contains("guess"))
        try await session.ok(["link", "delete", "go.badoo.com", "summer"])
        #expect(try await session.run(["link", "get", "go.badoo.com", "summer"]).status != 0)

        // 1,000 FDL links moved over with their codes (two batches of the API's largest size would be 2,000).
        var csv = "shortUrl,longLink\n"
        for n in 0..<1000 {
            csv += "https://badoo.page.link/fdl\(n),https://badoo.page.link/?link=https%3A%2F%2Fm.badoo.com%2Fu%2F\(n)"
            csv += "&isi=351331194&ibi=com.badoo.Badoo&imv=5.12&efr=1&st=Profile%20\(n)\n"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fdl-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let imported = try await session.ok(["link", "import", file.path, "--app", "badoo"])
        #expect(imported.contains("Imported 1000 link(s)"), "\(imported)")
        let link = try await server.result("Links.Get", ["domain": "go.badoo.com", "code": "fdl999"])
        #expect(link["target"] as? String == "https://m.badoo.com/u/999")
        #expect((link["ios"] as? [String: Any])?["minVersion"] as? String == "5.12.0")
        #expect(link["skipLanding"] as? Bool == true)
        #expect((link["preview"] as? [String: Any])?["title"] as? String == "Profile 999")

        // The link domain's AASA claims its paths once a version that resolves short links is live.
        try await session.ok(["release", "publish", "badoo", "ios", "5.11"])
        let (before, _) = try await server.get("/.well-known/apple-app-site-association", host: "go.badoo.com")
        #expect(!String(decoding: before, as: UTF8.self).contains(#""/":"/*""#))
        try await session.ok(["release", "publish", "badoo", "ios", "5.12"])
        let (after, _) = try await server.get("/.well-known/apple-app-site-association", host: "go.badoo.com")
        let text = String(decoding: after, as: UTF8.self)
        #expect(text.contains(#""/":"/*""#), "\(text)")
        #expect(text.contains("ul_fallback"), "the marker exclusion comes first: \(text)")
        // And assetlinks.json, once an Android version that resolves them is live.
        let (noLinks, _) = try await server.get("/.well-known/assetlinks.json", host: "go.badoo.com")
        #expect(!String(decoding: noLinks, as: UTF8.self).contains(#""/":"/*""#))
        try await session.ok(["release", "publish", "badoo", "android", "51200"])
        let (links, _) = try await server.get("/.well-known/assetlinks.json", host: "go.badoo.com")
        let statements = String(decoding: links, as: UTF8.self)
        #expect(
            statements.contains("dynamic_app_link_components") && statements.contains(#""/":"/*""#), "\(statements)")
    }
}
