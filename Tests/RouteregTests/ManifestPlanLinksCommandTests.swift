import Foundation
import RegistryTesting
import RouteCore
@testable import routereg
import Testing

/// `routereg plan` prints, beside the resource changes, the rules each live version would gain or lose per
/// domain, and `--json` carries them as `liveLinks`, valid against the manifest schema's Plan.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct ManifestPlanLinksCommandTests {
    @Test func thePlanShowsWhatLiveVersionsGainAndLose() async throws {
        let server = try TestRegistryServer(suite: "routereg_plan_links")
        defer { server.shutdown() }
        let session = ReleaseDayTests.Session(server: server)
        try await session.ok(["app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo"])
        try await session.ok(["domain", "add", "m.badoo.com", "--app", "badoo"])
        try await session.ok(["route", "add", "badoo", "old", "/old/*", "--since", "ios=5.0"])
        try await session.ok(["release", "publish", "badoo", "ios", "5.12.0"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("routereg.json").path
        try await session.ok(["export", "badoo", "--out", file])
        let same = try await session.ok(["plan", file])
        #expect(!same.contains("Live versions"), "\(same)")

        try await session.ok(["apply", file])  // the manifest now manages old: a prune may remove it

        // old goes, lookalikes comes (5.12.0 opens it), future comes too (no live version opens it yet).
        var manifest = try Manifest(strictJSON: try Data(contentsOf: URL(fileURLWithPath: file)))
        manifest.routes = [
            ManifestRoute(
                id: "lookalikes", pattern: URLPattern(path: "/l/a/*"),
                platforms: [.ios: VersionRange(since: try Version("5.12.0"))]),
            ManifestRoute(
                id: "future", pattern: URLPattern(path: "/f/*"),
                platforms: [.ios: VersionRange(since: try Version("6.0"))]),
        ]
        try ManifestCommands.encode(manifest, pretty: true).write(to: URL(fileURLWithPath: file))

        let text = try await session.ok(["plan", file, "--prune"])
        let lines = text.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Live versions would gain (+) or lose (-) these rules:"))
        #expect(
            Array(lines[(heading + 1)...].prefix(2)) == [
                "  m.badoo.com ios 5.12.0: + /l/a/*", "  m.badoo.com ios 5.12.0: - /old/*",
            ], "\(text)")

        let json = try await session.run(["plan", file, "--json", "--prune"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try ManifestSchemaTests.schema.violation(in: Array(json.stdout.utf8), definition: "Plan") == nil)
        let plan = try JSONDecoder().decode(ManifestPlan.self, from: Data(json.stdout.utf8))
        #expect(
            plan.liveLinks == [
                .init(
                    host: "m.badoo.com", platform: .ios, version: try Version("5.12.0"), gained: ["/l/a/*"],
                    lost: ["/old/*"])
            ])
    }
}
