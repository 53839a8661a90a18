import Foundation
import RegistryTesting
import Testing

/// An admin's `Manifests.Apply` writes the app's fields and the manifest's domains with the routes, in one
/// write, with the checks `Apps.Update` and `Domains.Create` make; the next plan shows no changes. It never
/// deletes a domain, and never takes over a domain of other apps.
@Suite(.serialized) struct ManifestAdminApplyTests {
    @Test func anAdminAppliesAppFieldsDomainsAndRoutesInOneWrite() async throws {
        let server = try TestRegistryServer(suite: "manifest_admin_apply")
        defer { server.shutdown() }
        try await seedBadoo(server)
        var manifest = try await ManifestApplyTests.export(server)
        var app = manifest["app"] as! [String: Any]
        app["displayName"] = "Badoo"
        manifest["app"] = app
        manifest["domains"] = [
            ["host": "m.badoo.com", "defaults": ["caseSensitive": false]],
            ["host": "n.badoo.com", "substitutionVariables": ["lang": ["en", "fr"]]],
        ]
        var routes = manifest["routes"] as! [[String: Any]]
        var chat = ManifestApplyTests.route("chat", "/$(lang)/c/*", since: "5.0")
        chat["domains"] = ["n.badoo.com"]
        routes.append(chat)
        manifest["routes"] = routes
        let plan = try await server.result("Manifests.Plan", ["manifest": manifest])
        let lines = plan.array("changes").compactMap { $0 as? [String: Any] }.map {
            "\($0.string("action") ?? "") \($0.string("kind") ?? "") \($0.string("id") ?? "")"
        }
        #expect(
            lines == ["change app badoo", "change domain m.badoo.com", "add domain n.badoo.com", "add route chat"],
            "\(plan)")
        let audit = try await auditCount(server)

        let applied = try await server.result(
            "Manifests.Apply",
            ["manifest": manifest, "basis": plan.object("basis")!, "changes": plan.array("changes"), "source": "a1"])
        #expect(applied.object("plan")?.array("changes").count == 4)
        #expect(try await auditCount(server) == audit + 1, "one write, one entry")
        #expect(try await server.result("Apps.Get", ["app": "badoo"]).string("displayName") == "Badoo")
        let m = try await server.result("Domains.Get", ["host": "m.badoo.com"])
        #expect(m.object("defaults")?["caseSensitive"] as? Bool == false)
        #expect(m["apps"] as? [String] == ["badoo"])
        let n = try await server.result("Domains.Get", ["host": "n.badoo.com"])
        #expect(n["apps"] as? [String] == ["badoo"])
        // The new domain serves the new route's rule: generated in the same write.
        let document = try await server.result("Associations.Get", ["host": "n.badoo.com"])
        #expect("\(document.object("document") ?? [:])".contains("route chat"), "\(document)")

        let again = try await server.result("Manifests.Plan", ["manifest": manifest])
        #expect(again.array("changes").isEmpty, "\(again)")
        #expect(again.object("basis")?.string("fingerprint") == applied.string("fingerprint"))

        // A domain the manifest leaves out stays; one another app holds is not taken over.
        _ = try await server.result("Apps.Create", ["app": ["id": "other"]])
        _ = try await server.result("Domains.Create", ["domain": ["host": "o.example.com", "apps": ["other"]]])
        var taking = manifest
        taking["domains"] = [["host": "m.badoo.com", "defaults": ["caseSensitive": false]], ["host": "o.example.com"]]
        let before = try await auditCount(server)
        let refused = try await server.call("Manifests.Apply", ["manifest": taking])
        #expect(errorCode(refused) == 9, "\(refused)")
        #expect(
            ManifestApplyTests.message(refused).contains("domains/o.example.com exists and does not serve apps/badoo"),
            "\(refused)")
        #expect(try await auditCount(server) == before, "nothing applied")
        let kept = try await server.result("Domains.Get", ["host": "n.badoo.com"])
        #expect(kept["apps"] as? [String] == ["badoo"])
    }

    @Test func anAdminsApplyCreatesTheAppAndValidatesLikeTheAPI() async throws {
        let server = try TestRegistryServer(suite: "manifest_admin_create")
        defer { server.shutdown() }
        let manifest: [String: Any] = [
            "app": ["id": "fresh", "ios": ["appIds": ["ABCDE12345.com.example.Fresh"]]],
            "domains": [["host": "fresh.example.com"]],
            "routes": [ManifestApplyTests.route("home", "/h/*", since: "1.0")],
        ]
        _ = try await server.result("Manifests.Apply", ["manifest": manifest, "source": "first"])
        #expect(try await server.result("Apps.Get", ["app": "fresh"]).string("id") == "fresh")
        #expect(try await server.result("Domains.Get", ["host": "fresh.example.com"])["apps"] as? [String] == ["fresh"])
        let plan = try await server.result("Manifests.Plan", ["manifest": manifest])
        #expect(plan.array("changes").isEmpty, "\(plan)")

        // A domain that is not valid is refused as Domains.Create refuses it, naming the manifest's member.
        var bad = manifest
        bad["domains"] = [["host": "fresh.example.com"], ["host": "x.example.com", "aliasOf": "nowhere.example.com"]]
        let refused = try await server.call("Manifests.Apply", ["manifest": bad])
        #expect(errorCode(refused) == 9, "\(refused)")
        #expect(
            ManifestApplyTests.message(refused).contains("domains/nowhere.example.com does not exist"), "\(refused)")
        let missing = try await server.call("Domains.Get", ["host": "x.example.com"])
        #expect(errorCode(missing) == 5, "nothing applied: \(missing)")
    }
}
