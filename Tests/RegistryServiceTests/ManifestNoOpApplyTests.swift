import Foundation
import RegistryTesting
import Testing

/// An apply that would change nothing writes nothing: no audit entry, no revision, the same answer as a plan
/// with no changes. The first apply of an export still writes once, since it adopts the routes.
@Suite(.serialized) struct ManifestNoOpApplyTests {
    private static func revisions(_ server: TestRegistryServer) async throws -> Int {
        try await server.result("Associations.ListRevisions", ["host": "m.badoo.com", "pageSize": 1000])
            .array("revisions").count
    }

    @Test func anApplyWithNoChangesWritesNothing() async throws {
        let server = try TestRegistryServer(suite: "manifest_noop")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let strip: Set<String> = [
            "name", "etag", "createTime", "updateTime", "aasaBudget", "app", "position", "managedBy", "switchedOff",
            "apps",
        ]
        func stripped(_ value: Any) -> [String: Any] {
            (value as? [String: Any] ?? [:]).filter { !strip.contains($0.key) }
        }
        let manifest: [String: Any] = [
            "app": stripped(try await server.result("Apps.Get", ["app": "badoo"])),
            "domains": try await server.result("Domains.List", ["app": "badoo"]).array("domains").map(stripped),
            "routes": try await server.result("Routes.List", ["app": "badoo"]).array("routes").map(stripped),
        ]

        // The first apply adopts the routes: one audit entry, though the plan has no changes.
        let audit = try await auditCount(server)
        let adopted = try await server.result("Manifests.Apply", ["manifest": manifest, "source": "c1"])
        #expect(adopted.object("plan")?.array("changes").isEmpty == true)
        #expect(try await auditCount(server) == audit + 1)

        // Again, as a CI job applying on every merge does: nothing written, the same state answered.
        let revisions = try await Self.revisions(server)
        let plan = try await server.result("Manifests.Plan", ["manifest": manifest])
        let again = try await server.result(
            "Manifests.Apply",
            [
                "manifest": manifest, "source": "c2", "basis": plan.object("basis")!, "changes": [Any](),
                "requestId": "noop-1",
            ])
        #expect(again.object("plan")?.array("changes").isEmpty == true, "\(again)")
        #expect(again.string("fingerprint") == plan.object("basis")?.string("fingerprint"))
        #expect(again.string("fingerprint") == adopted.string("fingerprint"))
        #expect(try await auditCount(server) == audit + 1, "a no-op apply records no audit entry")
        #expect(try await Self.revisions(server) == revisions, "and no revision")
        let route = try await server.result("Routes.Get", ["app": "badoo", "route": "profile"])
        #expect(route.object("managedBy")?.string("source") == "c1", "the routes are not touched")

        // A no-op refused as before when the reviewed plan is not this one.
        var stale = plan.object("basis")!
        stale["fingerprint"] = "sha256:" + String(repeating: "0", count: 64)
        let moved = try await server.call("Manifests.Apply", ["manifest": manifest, "basis": stale])
        #expect(errorCode(moved) == 9, "\(moved)")
        #expect(try await auditCount(server) == audit + 1)
    }
}
