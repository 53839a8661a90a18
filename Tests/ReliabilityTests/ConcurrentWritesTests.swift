import Foundation
import RegistryTesting
import Testing

/// Many clients writing to one app at once: every write lands, one after the other, and each has its
/// audit entry and gap-free revisions.
@Suite("Concurrent writes")
struct ConcurrentWritesTests {
    @Test("10 publishes and 10 route edits from 20 clients at once: all land, serialized, fully audited")
    func concurrentPublishesAndEdits() async throws {
        let server = try TestRegistryServer(suite: "concurrent")
        defer { server.shutdown() }
        let client = RegistryClient(baseURL: server.baseURL, token: TestRegistryServer.adminToken)
        let app = "together"
        try await Fixture.seed(client, app: app)
        for index in 0..<10 {
            _ = try await client.result(
                "Routes.Create", ["app": app, "route": Fixture.route("r\(index)", path: "/r\(index)/*")])
        }
        let auditBefore = try await client.all("Audit.List", [:], key: "entries").count

        // Each task has its own client (own connections): 10 publish distinct versions, 10 edit distinct routes.
        let outcomes = try await withThrowingTaskGroup(of: (String, String?).self) { group in
            for index in 0..<10 {
                group.addTask {
                    let response = try await RegistryClient(
                        baseURL: server.baseURL, token: TestRegistryServer.adminToken
                    )
                    .call("Releases.Publish", ["app": app, "platform": "ios", "version": "3.\(index)"])
                    return ("Releases.Publish", response.object["error"].map { "\($0)" })
                }
                group.addTask {
                    let route = Fixture.route("r\(index)", path: "/edited\(index)/*", since: "3.\(index)")
                    let response = try await RegistryClient(
                        baseURL: server.baseURL, token: TestRegistryServer.adminToken
                    )
                    .call("Routes.Update", ["app": app, "route": route])
                    return ("Routes.Update", response.object["error"].map { "\($0)" })
                }
            }
            var collected: [(String, String?)] = []
            for try await outcome in group { collected.append(outcome) }
            return collected
        }
        let failures = outcomes.compactMap { $0.1 }
        #expect(failures.isEmpty, "writes failed under contention: \(failures)")

        let audit = try await client.all("Audit.List", [:], key: "entries")
        let recent = audit.prefix(audit.count - auditBefore)
        #expect(recent.filter { $0["method"] as? String == "Releases.Publish" }.count == 10)
        #expect(recent.filter { $0["method"] as? String == "Routes.Update" }.count == 10)
        #expect(recent.count == 20, "unexpected extra audit entries: \(recent.map { $0["method"] ?? "?" })")

        let releases = try await client.all("Releases.List", ["app": app], key: "releases")
        #expect(Set(releases.compactMap { $0["version"] as? String }) == Set((0..<10).map { "3.\($0)" }))
        #expect(releases.allSatisfy { $0["state"] as? String == "live" })
        let routes = try await client.all("Routes.List", ["app": app], key: "routes")
        for index in 0..<10 {
            let route = routes.first { $0["id"] as? String == "r\(index)" }
            #expect(
                (route?["pattern"] as? [String: Any])?["path"] as? String == "/edited\(index)/*",
                "r\(index) lost its edit")
        }
        let violations = try await RegistryInvariants(client: client, app: app, hosts: Fixture.hosts(app)).violations()
        #expect(violations.isEmpty, "\(violations)")

        // The last write saw everything: the served file lists every edited route.
        let (body, _) = try await client.get("/.well-known/apple-app-site-association", host: Fixture.hosts(app)[0])
        let text = String(decoding: body, as: UTF8.self)
        for index in 0..<10 { #expect(text.contains("/edited\(index)/*"), "the served AASA lacks route r\(index)") }
    }
}
