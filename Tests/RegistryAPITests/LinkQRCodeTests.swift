import Foundation
import RegistryTesting
import Testing

/// A short link's QR code served by its link domain and read back by ZBar, scans counted as their own source,
/// and the stats that tell people from bots (issue 45), against a real server over real HTTP.
@Suite(
    .serialized, .enabled(if: QRDecoder.isAvailable, "zbarimg is not installed (scripts/bootstrap test installs it)"))
struct LinkQRCodeTests {
    typealias Serving = LinksServingTests

    @Test func theCodeScansBackToTheShortURLMarkedAsAScan() async throws {
        let server = try TestRegistryServer(suite: "link_qr")
        defer { server.shutdown() }
        try await Serving.seed(server)
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "summer", "target": "https://m.badoo.com/l/a/42"]])

        let png = try Serving.visit(server, "/summer/qr.png", agent: Serving.safari)
        #expect(png.status == 200 && png.header("content-type") == "image/png")
        #expect(try QRDecoder.decode(png: png.body) == "https://go.badoo.com/summer?qr=1")
        let svg = try Serving.visit(server, "/summer/qr.svg", agent: Serving.firefox)
        #expect(svg.status == 200 && svg.header("content-type") == "image/svg+xml")
        #expect(svg.text.hasPrefix("<svg ") && !svg.text.contains("<script"))
        #expect(svg.header("content-security-policy")?.hasPrefix("default-src 'none'") == true)
        // A second request is the same image (drawn once per thread, then kept).
        #expect(try Serving.visit(server, "/summer/qr.png", agent: Serving.safari).body == png.body)

        // No code for what sends nowhere.
        #expect(try Serving.visit(server, "/winter/qr.png", agent: Serving.safari).status == 404)
        var link = try await server.result("Links.Get", ["domain": "go.badoo.com", "code": "summer"])
        link["disabled"] = true
        let off = try await server.result("Links.Update", ["link": link])
        #expect(try Serving.visit(server, "/summer/qr.svg", agent: Serving.safari).status == 404)
        // Links.QRCode gives the same SVG, for a disabled link too (its code does not change).
        let described = try await server.result("Links.QRCode", ["domain": "go.badoo.com", "code": "summer"])
        #expect(described["url"] as? String == "https://go.badoo.com/summer?qr=1")
        #expect(described["svg"] as? String == svg.text)
        let unknown = try await server.call("Links.QRCode", ["domain": "go.badoo.com", "code": "winter"])
        #expect(((unknown["error"] as? [String: Any])?["data"] as? [String: Any])?["status"] as? String == "NOT_FOUND")
        var on = off
        on["disabled"] = nil
        _ = try await server.result("Links.Update", ["link": on])
        // The admin host serves no QR codes: they belong to the link domain.
        let admin = try RawHTTPClient(port: server.server.port).request(
            "GET", "/summer/qr.png", headers: [("Host", "m.badoo.com"), ("User-Agent", Serving.safari)])
        #expect(admin.status == 404)
    }

    @Test func scansAreTheirOwnSourceAndBotsAreCountedApart() async throws {
        let server = try TestRegistryServer(suite: "link_qr_stats")
        try await Serving.seed(server)
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "summer", "target": "https://m.badoo.com/l/a/42"]])
        // Twice each, so the second answer comes from the thread's prepared answers and is counted the same.
        for _ in 0..<2 {
            #expect(try Serving.visit(server, "/summer?qr=1", agent: Serving.safari).status == 200)
            #expect(try Serving.visit(server, "/summer", agent: Serving.safari).status == 200)
            #expect(try Serving.visit(server, "/summer", agent: Serving.slack).status == 200)
        }
        let stats = try await server.result("Links.Stats", ["domain": "go.badoo.com", "code": "summer"])
        let counts = (stats["counts"] as? [[String: Any]] ?? []).map {
            "\($0["platform"] ?? "") \($0["outcome"] ?? "") \($0["source"] ?? "") \($0["visitor"] ?? "") \($0["count"] ?? "")"
        }
        #expect(
            Set(counts) == ["ios landing qr person 2", "ios landing link person 2", "crawler crawler link bot 2"],
            "\(stats)")
        #expect(stats["total"] as? Int == 6 && stats["people"] as? Int == 4 && stats["bots"] as? Int == 2)
        // Written by a graceful stop (scans to their own table): a second server on the database reads the same.
        server.stop()
        let second = try TestRegistryServer(suite: "link_qr_stats", database: server.database)
        defer { second.shutdown() }
        let kept = try await second.result("Links.Stats", ["domain": "go.badoo.com", "code": "summer"])
        #expect((kept["counts"] as? [[String: Any]])?.count == 3 && kept["total"] as? Int == 6, "\(kept)")
        #expect(
            (kept["counts"] as? [[String: Any]] ?? []).contains {
                $0["source"] as? String == "qr" && $0["count"] as? Int == 2
            })
    }
}
