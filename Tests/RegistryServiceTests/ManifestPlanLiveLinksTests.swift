import Foundation
import RegistryTesting
import Testing

/// `Manifests.Plan` names the rules each live version would gain or lose per domain: an added route on the
/// domains it applies to, for the live versions that handle it; a prune's losses; nothing when no route
/// changes. Derived only: the plan's basis and changes, and what an apply checks, stay the same.
@Suite(.serialized) struct ManifestPlanLiveLinksTests {
    private static func route(_ id: String, _ path: String, since: String, domains: [String] = []) -> [String: Any] {
        var route: [String: Any] = ["id": id, "pattern": ["path": path], "platforms": ["ios": ["since": since]]]
        if !domains.isEmpty { route["domains"] = domains }
        return route
    }

    /// `host platform version: +gained -lost` per entry, in the plan's order.
    private static func links(_ plan: [String: Any]) -> [String] {
        plan.array("liveLinks").compactMap { $0 as? [String: Any] }.map { entry in
            let gained = (entry["gained"] as? [String] ?? []).map { "+" + $0 }
            let lost = (entry["lost"] as? [String] ?? []).map { "-" + $0 }
            return "\(entry.string("host") ?? "") \(entry.string("platform") ?? "") \(entry.string("version") ?? ""): "
                + (gained + lost).joined(separator: " ")
        }
    }

    /// badoo on m.badoo.com and n.badoo.com, routes profile (/u/*, ios 5.0+) and lookalikes (/l/a/*, ios
    /// 5.12.0+), ios 5.11.0 and 5.12.0 live; the export as a manifest, applied so a manifest manages them.
    private static func seeded(_ server: TestRegistryServer) async throws -> [String: Any] {
        try await seedBadoo(server)
        _ = try await server.result("Domains.Create", ["domain": ["host": "n.badoo.com", "apps": ["badoo"]]])
        _ = try await server.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        var app = try await server.result("Apps.Get", ["app": "badoo"])
        app = app.filter { !["name", "etag", "createTime", "updateTime", "aasaBudget"].contains($0.key) }
        let domains: [[String: Any]] = [["host": "m.badoo.com"], ["host": "n.badoo.com"]]
        let routes = [
            route("profile", "/u/*", since: "5.0"), route("lookalikes", "/l/a/*", since: "5.12.0"),
        ]
        let manifest: [String: Any] = ["app": app, "domains": domains, "routes": routes]
        let plan = try await server.result("Manifests.Plan", ["manifest": manifest])
        #expect(plan.array("changes").isEmpty, "the manifest matches the seed: \(plan)")
        _ = try await server.result("Manifests.Apply", ["manifest": manifest, "source": "seed"])
        return manifest
    }

    @Test func anAddedRouteIsGainedByTheLiveVersionsThatHandleItOnItsDomains() async throws {
        let server = try TestRegistryServer(suite: "manifest_links_add")
        defer { server.shutdown() }
        var manifest = try await Self.seeded(server)
        var routes = manifest["routes"] as! [[String: Any]]
        routes.insert(Self.route("chat", "/c/*", since: "5.12.0", domains: ["n.badoo.com"]), at: 0)
        routes.append(Self.route("all", "/a/*", since: "5.0"))
        routes.append(Self.route("future", "/f/*", since: "6.0"))
        manifest["routes"] = routes
        let audit = try await auditCount(server)

        let plan = try await server.result("Manifests.Plan", ["manifest": manifest])
        #expect(
            Self.links(plan) == [
                "m.badoo.com ios 5.11.0: +/a/*", "m.badoo.com ios 5.12.0: +/a/*",
                "n.badoo.com ios 5.11.0: +/a/*", "n.badoo.com ios 5.12.0: +/c/* +/a/*",
            ], "\(plan)")
        #expect(try await auditCount(server) == audit, "a plan writes nothing")

        // The gains are derived: applying the plan checks its basis and changes, and then nothing is left.
        let params: [String: Any] = [
            "manifest": manifest, "basis": plan.object("basis")!, "changes": plan.array("changes"),
        ]
        _ = try await server.result("Manifests.Apply", params)
        let again = try await server.result("Manifests.Plan", ["manifest": manifest])
        #expect(again.array("changes").isEmpty)
        #expect(again["liveLinks"] == nil, "\(again)")
    }

    @Test func aPruneShowsWhatLiveVersionsLoseAndAChangeBoth() async throws {
        let server = try TestRegistryServer(suite: "manifest_links_prune")
        defer { server.shutdown() }
        let manifest = try await Self.seeded(server)
        var empty = manifest
        empty["routes"] = [[String: Any]]()
        let pruned = try await server.result("Manifests.Plan", ["manifest": empty, "prune": true])
        #expect(
            Self.links(pruned) == [
                "m.badoo.com ios 5.11.0: -/u/*", "m.badoo.com ios 5.12.0: -/u/* -/l/a/*",
                "n.badoo.com ios 5.11.0: -/u/*", "n.badoo.com ios 5.12.0: -/u/* -/l/a/*",
            ], "\(pruned)")
        // Without a prune the routes stay, and so do the links.
        let kept = try await server.result("Manifests.Plan", ["manifest": empty])
        #expect(kept["liveLinks"] == nil, "\(kept)")

        // profile moves to /p/* and to 5.12.0+: 5.11.0 loses /u/*, 5.12.0 swaps it for /p/*.
        var moved = manifest
        var routes = manifest["routes"] as! [[String: Any]]
        routes[0] = Self.route("profile", "/p/*", since: "5.12.0", domains: ["m.badoo.com"])
        moved["routes"] = routes
        let changed = try await server.result("Manifests.Plan", ["manifest": moved])
        #expect(
            Self.links(changed) == [
                "m.badoo.com ios 5.11.0: -/u/*", "m.badoo.com ios 5.12.0: +/p/* -/u/*",
                "n.badoo.com ios 5.11.0: -/u/*", "n.badoo.com ios 5.12.0: -/u/*",
            ], "\(changed)")
    }

    @Test func aPlanWithoutRouteChangesNamesNoLinks() async throws {
        let server = try TestRegistryServer(suite: "manifest_links_none")
        defer { server.shutdown() }
        let manifest = try await Self.seeded(server)
        var renamed = manifest
        var app = manifest["app"] as! [String: Any]
        app["displayName"] = "Badoo"
        renamed["app"] = app
        var routes = manifest["routes"] as! [[String: Any]]
        routes.swapAt(0, 1)
        renamed["routes"] = routes
        let plan = try await server.result("Manifests.Plan", ["manifest": renamed])
        let changes = plan.array("changes").compactMap { $0 as? [String: Any] }
        #expect(changes.map { $0.string("action") } == ["change", "move"], "\(plan)")
        #expect(plan["liveLinks"] == nil, "an app field and a move change no version's rules: \(plan)")
    }
}
