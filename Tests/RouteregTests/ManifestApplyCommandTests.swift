import Foundation
import RegistryTesting
import RouteCore
@testable import routereg
import Testing

/// `routereg apply` through the built binary against a real server: a saved plan applies exactly as reviewed
/// (its source read from CI's environment) and the next plan has no changes; a saved plan the registry moved
/// away from is refused with exit 1, naming what moved, and nothing is applied.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct ManifestApplyCommandTests {
    @Test func aSavedPlanAppliesAsReviewedAndIsRefusedOnceTheRegistryMoved() async throws {
        let server = try TestRegistryServer(suite: "routereg_apply")
        defer { server.shutdown() }
        let session = ReleaseDayTests.Session(server: server)
        try await session.ok(["app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo"])
        try await session.ok(["domain", "add", "m.badoo.com", "--app", "badoo"])
        try await session.ok(["route", "add", "badoo", "profile", "/u/*", "--since", "ios=5.0"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apply-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("routereg.json").path
        let planFile = directory.appendingPathComponent("plan.json").path
        try await session.ok(["export", "badoo", "--out", file])

        var manifest = try Manifest(strictJSON: try Data(contentsOf: URL(fileURLWithPath: file)))
        manifest.routes[0].platforms[.ios] = VersionRange(since: try Version("5.1"))
        manifest.routes.append(
            ManifestRoute(
                id: "lookalikes", pattern: URLPattern(path: "/l/a/*"),
                platforms: [.ios: VersionRange(since: try Version("5.12.0"))]))
        try ManifestCommands.encode(manifest, pretty: true).write(to: URL(fileURLWithPath: file))
        let planned = try await session.run(["plan", file, "--detailed-exitcode", "--out", planFile])
        #expect(planned.status == 2, "\(planned.stderr)")

        let applied = try await session.run(["apply", planFile], environment: ["GITHUB_SHA": "abc123"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(
            applied.stdout.split(separator: "\n").map(String.init) == [
                "Applied badoo from abc123:", "~ route profile: since ios 5.0 → 5.1",
                "+ route lookalikes /l/a/* (ios 5.12.0+)", "Apply complete: 1 added, 1 changed, 0 moved, 0 removed.",
                try #require(applied.stdout.split(separator: "\n").last.map(String.init)),
            ])
        #expect(applied.stdout.contains("Registry state now sha256:"))
        let none = try await session.run(["plan", file, "--detailed-exitcode"])
        #expect(none.status == 0, "\(none.stdout)\(none.stderr)")
        let profile = try await server.result("Routes.Get", ["app": "badoo", "route": "profile"])
        #expect((profile["managedBy"] as? [String: Any])?["source"] as? String == "abc123")

        // Reviewed again, then someone adds a route by hand before the merge: the saved plan is refused.
        manifest.routes[0].platforms[.ios] = VersionRange(since: try Version("5.2"))
        try ManifestCommands.encode(manifest, pretty: true).write(to: URL(fileURLWithPath: file))
        _ = try await session.run(["plan", file, "--out", planFile])
        try await session.ok(["route", "add", "badoo", "later", "/later/*", "--since", "ios=6.0"])
        let refused = try await session.run(["apply", planFile, "--source", "def456"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the registry moved since the plan"), "\(refused.stderr)")
        #expect(refused.stderr.contains("routes 2 → 3"), "\(refused.stderr)")
        let unchanged = try await server.result("Routes.Get", ["app": "badoo", "route": "profile"])
        #expect(((unchanged["platforms"] as? [String: Any])?["ios"] as? [String: Any])?["since"] as? String == "5.1")
        #expect((unchanged["managedBy"] as? [String: Any])?["source"] as? String == "abc123")

        // A prune the saved plan did not review is refused before anything is sent.
        let prune = try await session.run(["apply", planFile, "--prune"])
        #expect(prune.status == 1)
        #expect(prune.stderr.contains("was planned without --prune"), "\(prune.stderr)")

        // A prune planned and applied: the plan warns that live 5.1 opens profile, the apply refuses it.
        try await session.ok(["release", "publish", "badoo", "ios", "5.1"])
        manifest.routes.removeAll { $0.id == "profile" }
        try ManifestCommands.encode(manifest, pretty: true).write(to: URL(fileURLWithPath: file))
        let pruning = try await session.run(["plan", file, "--prune"])
        #expect(pruning.status == 0, "\(pruning.stderr)")
        for line in [
            "- route profile",
            "  route later: not in manifest (kept: not managed by a manifest, so a prune keeps it too)",
            "! route profile (/u/* on every domain of the app): live ios 5.1 would lose these links: apply refuses "
                + "this prune without --allow-breaking",
        ] {
            #expect(pruning.stdout.contains(line), "\(pruning.stdout)")
        }
        let breaking = try await session.run(["apply", file, "--prune"])
        #expect(breaking.status == 1)
        #expect(breaking.stderr.contains("live ios 5.1 would lose these links"), "\(breaking.stderr)")
        let allowed = try await session.run(["apply", file, "--prune", "--allow-breaking"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("- route profile"), "\(allowed.stdout)")
    }
}
