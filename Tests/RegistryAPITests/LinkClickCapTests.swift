import Foundation
import RegistryTesting
import Testing

/// Expiry by click count (issue 45): people's clicks use a link up, bots do not, and a server started later
/// knows how many were used.
@Suite(.serialized) struct LinkClickCapTests {
    typealias Serving = LinksServingTests

    @Test func aLinkStopsAfterItsClicksByPeople() async throws {
        let server = try TestRegistryServer(suite: "link_caps")
        try await Serving.seed(server)
        _ = try await server.result(
            "Links.Create",
            ["app": "badoo", "link": ["code": "three", "target": "https://m.badoo.com/u/3", "maxClicks": 3]])
        // Bots first: they are answered, and use nothing up.
        for _ in 0..<5 { #expect(try Serving.visit(server, "/three", agent: Serving.slack).status == 200) }
        // Twice from the same visitor class: the second answer comes from the thread's cache, checked all the same.
        #expect(try Serving.visit(server, "/three", agent: Serving.firefox).status == 302)
        #expect(try Serving.visit(server, "/three", agent: Serving.firefox).status == 302)
        #expect(try Serving.visit(server, "/three?qr=1", agent: Serving.safari).status == 200)
        for agent in [Serving.firefox, Serving.safari] {
            let used = try Serving.visit(server, "/three", agent: agent)
            #expect(used.status == 404 && used.header("location") == nil)
        }
        #expect(try Serving.visit(server, "/three", agent: Serving.slack).status == 200)
        let resolved = try await server.call(
            "Links.Resolve", ["url": "https://go.badoo.com/three", "platform": "ios", "version": "5.11.0"])
        #expect(((resolved["error"] as? [String: Any])?["data"] as? [String: Any])?["status"] as? String == "NOT_FOUND")
        let stats = try await server.result("Links.Stats", ["domain": "go.badoo.com", "code": "three"])
        #expect(stats["people"] as? Int == 3 && stats["bots"] as? Int == 6)
        let misses = stats["domainMisses"] as? [[String: Any]] ?? []
        #expect(misses.contains { $0["outcome"] as? String == "expired" && $0["count"] as? Int == 2 })

        // A server started on the same database (after a graceful stop wrote the clicks) knows it is used up.
        server.stop()
        let second = try TestRegistryServer(suite: "link_caps", database: server.database)
        defer { second.shutdown() }
        #expect(try Serving.visit(second, "/three", agent: Serving.firefox).status == 404)
        // Raising the cap lets people in again.
        var link = try await second.result("Links.Get", ["domain": "go.badoo.com", "code": "three"])
        #expect(link["maxClicks"] as? Int == 3)
        link["maxClicks"] = 4
        _ = try await second.result("Links.Update", ["link": link])
        #expect(try Serving.visit(second, "/three", agent: Serving.firefox).status == 302)
        #expect(try Serving.visit(second, "/three", agent: Serving.firefox).status == 404)
    }

    @Test func aCapOutsideItsBoundsIsRefused() async throws {
        let server = try TestRegistryServer(suite: "link_caps_bounds")
        defer { server.shutdown() }
        try await Serving.seed(server)
        for bad in [0, -1, 1_000_000_001] {
            let refused = try await server.call(
                "Links.Create",
                ["app": "badoo", "link": ["code": "x", "target": "https://m.badoo.com/u/3", "maxClicks": bad]])
            let data = (refused["error"] as? [String: Any])?["data"] as? [String: Any]
            #expect(data?["status"] as? String == "INVALID_ARGUMENT", "\(bad)")
            let fields = (data?["details"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
            #expect(fields == ["link.maxClicks"], "\(bad): \(refused)")
        }
    }
}
