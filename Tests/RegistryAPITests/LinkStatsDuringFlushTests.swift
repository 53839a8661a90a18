import Foundation
import RegistryTesting
import Testing

/// `Links.Stats` adds the database's counts to those still in memory; a flush moves counts from one to the
/// other. Read while a flush was between the two, the clicks it carried were in neither, and Stats showed
/// fewer clicks than were made. With flushes every 10 ms, every read must see every click made before it.
@Suite(.serialized) struct LinkStatsDuringFlushTests {
    typealias Serving = LinksServingTests

    @Test func statsNeverMissClicksBeingFlushed() async throws {
        let server = try TestRegistryServer(
            suite: "link_stats_flush", runtime: .init(clickFlushInterval: .milliseconds(10)))
        defer { server.shutdown() }
        try await Serving.seed(server)
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "summer", "target": "https://m.badoo.com/l/a/42"]])
        var shortfalls: [String] = []
        for made in 1...150 {
            #expect(try Serving.visit(server, "/summer", agent: Serving.firefox).status == 302)
            let stats = try await server.result("Links.Stats", ["domain": "go.badoo.com", "code": "summer"])
            let total = stats["total"] as? Int ?? -1
            if total != made { shortfalls.append("after \(made) clicks: \(total)") }
        }
        #expect(shortfalls.isEmpty, "\(shortfalls.prefix(5))")
    }
}
