import Foundation
import RegistryTesting
import Testing

/// `Manifests.Plan` and `Manifests.Apply` against a real server: an edit applies exactly as planned and then
/// plans nothing; a plan is refused once the registry moved; a retry applies once; a prune removes only
/// managed routes and refuses to drop what live versions open; the app and domains stay an admin's.
@Suite(.serialized) struct ManifestApplyTests {
    private static let outputOnly: Set<String> = [
        "name", "etag", "createTime", "updateTime", "aasaBudget", "app", "position", "managedBy", "switchedOff",
        "apps",
    ]

    private static func stripped(_ value: Any) -> [String: Any] {
        (value as? [String: Any] ?? [:]).filter { !outputOnly.contains($0.key) }
    }

    /// The app's state as a manifest, as `routereg export` writes it.
    static func export(_ server: TestRegistryServer) async throws -> [String: Any] {
        var app = try await server.result("Apps.Get", ["app": "badoo"])
        app = stripped(app)
        let domains = try await server.result("Domains.List", ["app": "badoo"]).array("domains").map(stripped)
        let routes = try await server.result("Routes.List", ["app": "badoo", "pageSize": 1000]).array("routes")
            .map(stripped)
        return ["app": app, "domains": domains, "routes": routes]
    }

    static func routes(_ server: TestRegistryServer) async throws -> [[String: Any]] {
        try await server.result("Routes.List", ["app": "badoo", "pageSize": 1000]).array("routes").compactMap {
            $0 as? [String: Any]
        }
    }

    static func message(_ response: [String: Any]) -> String {
        (response["error"] as? [String: Any])?.string("message") ?? "accepted: \(response)"
    }

    static func route(_ id: String, _ path: String, since: String) -> [String: Any] {
        ["id": id, "pattern": ["path": path], "platforms": ["ios": ["since": since]]]
    }

    @Test func anEditAppliesExactlyAsPlannedOnceAndThenPlansNoChanges() async throws {
        let server = try TestRegistryServer(suite: "manifest_apply")
        defer { server.shutdown() }
        try await seedBadoo(server)
        var manifest = try await Self.export(server)
        var routes = manifest["routes"] as! [[String: Any]]
        routes[0]["platforms"] = ["ios": ["since": "5.1"]]
        routes.insert(Self.route("chat", "/c/*", since: "5.0"), at: 1)
        manifest["routes"] = routes

        let plan = try await server.result("Manifests.Plan", ["manifest": manifest])
        let changes = plan.array("changes").compactMap { $0 as? [String: Any] }
        #expect(
            changes.map { "\($0.string("action") ?? "") \($0.string("id") ?? "")" } == ["change profile", "add chat"])
        let audit = try await auditCount(server)

        let params: [String: Any] = [
            "manifest": manifest, "basis": plan.object("basis")!, "changes": plan.array("changes"),
            "source": "abc123", "requestId": "apply-1",
        ]
        let applied = try await server.result("Manifests.Apply", params)
        let fingerprint = try #require(applied.string("fingerprint"))
        #expect(applied.object("plan")?.array("changes").count == 2)
        let after = try await Self.routes(server)
        #expect(after.map { $0.string("id") } == ["profile", "chat", "lookalikes"])
        #expect(after.map { $0.object("managedBy")?.string("source") } == ["abc123", "abc123", "abc123"])
        #expect(after.first?.object("platforms")?.object("ios")?.string("since") == "5.1")

        let again = try await server.result("Manifests.Plan", ["manifest": manifest])
        #expect(again.array("changes").isEmpty)
        #expect(again.object("basis")?.string("fingerprint") == fingerprint)

        // One audit entry naming the source and the plan's lines; the files name the apply as their cause.
        #expect(try await auditCount(server) == audit + 1)
        let entry = try #require(
            try await server.result("Audit.List", ["pageSize": 1]).array("entries").first as? [String: Any])
        #expect(entry.string("method") == "Manifests.Apply")
        #expect(entry.string("resource") == "apps/badoo/routes")
        #expect(entry.object("after")?.string("source") == "abc123")
        #expect(
            entry.object("after")?.array("lines") as? [String] == [
                "~ route profile: since ios 5.0 → 5.1", "+ route chat /c/* (ios 5.0+)",
            ])
        let document = try await server.result("Associations.Get", ["host": "m.badoo.com"])
        #expect(document.string("cause") == "Manifests.Apply badoo from abc123")

        // The same requestId again: the first outcome, nothing written again.
        let replay = try await server.result("Manifests.Apply", params)
        #expect(replay.string("fingerprint") == fingerprint)
        #expect(try await auditCount(server) == audit + 1)
    }

    @Test func aPlanIsRefusedOnceTheRegistryMovedNamingWhatMoved() async throws {
        let server = try TestRegistryServer(suite: "manifest_moved")
        defer { server.shutdown() }
        try await seedBadoo(server)
        var manifest = try await Self.export(server)
        var routes = manifest["routes"] as! [[String: Any]]
        routes[0]["platforms"] = ["ios": ["since": "5.1"]]
        manifest["routes"] = routes
        let plan = try await server.result("Manifests.Plan", ["manifest": manifest])

        // Meanwhile someone adds a route and sets profile's since by hand.
        _ = try await server.result(
            "Routes.Create", ["app": "badoo", "route": Self.route("later", "/later/*", since: "6.0")])
        _ = try await server.result(
            "Routes.Update", ["app": "badoo", "route": Self.route("profile", "/u/*", since: "5.2")])
        let audit = try await auditCount(server)
        let refused = try await server.call(
            "Manifests.Apply",
            ["manifest": manifest, "basis": plan.object("basis")!, "changes": plan.array("changes")])
        #expect(errorCode(refused) == 9, "\(refused)")
        let message = Self.message(refused)
        #expect(message.contains("the registry moved since the plan"), "\(message)")
        #expect(message.contains("routes 2 → 3"), "\(message)")
        #expect(
            message.contains(
                "route profile: reviewed \"~ route profile: since ios 5.0 → 5.1\", now "
                    + "\"~ route profile: since ios 5.2 → 5.1\""), "\(message)")
        #expect(try await auditCount(server) == audit)
        let profile = try await server.result("Routes.Get", ["app": "badoo", "route": "profile"])
        #expect(profile.object("platforms")?.object("ios")?.string("since") == "5.2")
        #expect(profile.object("managedBy") == nil)

        // A prune nobody reviewed is refused too, even on an unmoved registry.
        let fresh = try await server.result("Manifests.Plan", ["manifest": manifest])
        let unreviewed = try await server.call(
            "Manifests.Apply",
            [
                "manifest": ["app": manifest["app"]!, "domains": manifest["domains"]!, "routes": [[String: Any]]()],
                "basis": fresh.object("basis")!, "changes": fresh.array("changes"), "prune": true,
            ])
        #expect(errorCode(unreviewed) == 9)
        #expect(Self.message(unreviewed).contains("the plan is not the one reviewed"), "\(unreviewed)")
    }

    @Test func aPruneRemovesOnlyManagedRoutesAndRefusesABreakingDrop() async throws {
        let server = try TestRegistryServer(suite: "manifest_prune")
        defer { server.shutdown() }
        try await seedBadoo(server)  // ios 5.11.0 is live: it opens profile (5.0+), not lookalikes (5.12.0+)
        let manifest = try await Self.export(server)
        _ = try await server.result("Manifests.Apply", ["manifest": manifest, "source": "s1"])
        _ = try await server.result(
            "Routes.Create", ["app": "badoo", "route": Self.route("hand", "/h/*", since: "5.0")])

        var empty = manifest
        empty["routes"] = [[String: Any]]()
        let plan = try await server.result("Manifests.Plan", ["manifest": empty, "prune": true])
        let changes = plan.array("changes").compactMap { $0 as? [String: Any] }
        #expect(
            changes.map { "\($0.string("action") ?? "") \($0.string("id") ?? "")" } == [
                "remove profile", "remove lookalikes",
            ])
        let kept = plan.array("notInManifest").compactMap { $0 as? [String: Any] }
        #expect(kept.map { $0.string("id") } == ["hand"])
        #expect(kept.first?["managed"] as? Bool == false)

        let breaking = try await server.call("Manifests.Apply", ["manifest": empty, "prune": true])
        #expect(errorCode(breaking) == 9)
        let message = Self.message(breaking)
        #expect(
            message.contains("route profile (/u/* on every domain of the app): live ios 5.11.0 would lose these links"),
            "\(message)")
        #expect(!message.contains("route lookalikes"), "\(message)")
        #expect(try await Self.routes(server).map { $0.string("id") } == ["profile", "lookalikes", "hand"])

        _ = try await server.result("Manifests.Apply", ["manifest": empty, "prune": true, "allowBreaking": true])
        let left = try await Self.routes(server)
        #expect(left.map { $0.string("id") } == ["hand"])
        #expect(left.first?.object("managedBy") == nil)
    }

    @Test func aReleasersApplyLeavesTheAppAndItsDomainsToAnAdmin() async throws {
        let server = try TestRegistryServer(suite: "manifest_admin")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let releaser = try #require(
            try await server.result(
                "Tokens.Create", ["token": ["displayName": "ci", "role": "releaser"]]
            ).string("secret"))
        let manifest = try await Self.export(server)
        var renamed = manifest
        var app = manifest["app"] as! [String: Any]
        app["displayName"] = "Badoo"
        renamed["app"] = app
        var routes = manifest["routes"] as! [[String: Any]]
        routes.append(Self.route("chat", "/c/*", since: "5.0"))
        renamed["routes"] = routes
        let refused = try await server.call("Manifests.Apply", ["manifest": renamed], token: releaser)
        #expect(errorCode(refused) == 9)
        #expect(Self.message(refused).contains("~ app badoo: displayName (none) → Badoo"), "\(refused)")
        #expect(Self.message(refused).contains("only an admin's Manifests.Apply writes"), "\(refused)")
        #expect(try await Self.routes(server).count == 2, "nothing applied, not even the route")

        var domain = manifest
        domain["domains"] = (manifest["domains"] as! [[String: Any]]) + [["host": "n.badoo.com"]]
        let newDomain = try await server.call("Manifests.Apply", ["manifest": domain], token: releaser)
        #expect(Self.message(newDomain).contains("+ domain n.badoo.com"), "\(newDomain)")

        var twice = manifest
        twice["routes"] = routes + [Self.route("chat", "/c2/*", since: "5.0")]
        for method in ["Manifests.Plan", "Manifests.Apply"] {
            let repeated = try await server.call(method, ["manifest": twice], token: releaser)
            #expect(errorCode(repeated) == 3, "\(method): \(repeated)")
            #expect(Self.message(repeated).contains("manifest.routes[3].id"), "\(method): \(repeated)")
        }

        var ghost = manifest
        ghost["app"] = ["id": "ghost"]
        ghost["domains"] = [[String: Any]]()
        let missing = try await server.call("Manifests.Apply", ["manifest": ghost], token: releaser)
        #expect(errorCode(missing) == 9)
        #expect(Self.message(missing).contains("apps/ghost does not exist"), "\(missing)")
    }
}
