import Foundation
import RegistryTesting
import RouteCore
@testable import routereg
import Testing

/// `routereg export` and `routereg plan` through the built binary against a real server: an export plans no
/// changes, an edit plans exactly itself, a malformed manifest names the member at fault; every export and
/// `--json` plan is valid against `Schema/routereg-manifest.schema.json`, checked by the server's own validator.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct ManifestCommandsTests {
    @Test func exportPlansNoChangesAndAnEditPlansExactlyItself() async throws {
        let server = try TestRegistryServer(suite: "routereg_manifest")
        defer { server.shutdown() }
        let session = ReleaseDayTests.Session(server: server)
        try await session.ok(["app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo"])
        try await session.ok(["domain", "add", "m.badoo.com", "--app", "badoo"])
        try await session.ok([
            "route", "add", "badoo", "profile", "/u/*", "--since", "ios=5.0", "--comment", "Profiles",
        ])
        try await session.ok(["route", "add", "badoo", "help", "/help/*", "--exclude"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("routereg.json").path

        let wrote = try await session.ok(["export", "badoo", "--out", file])
        #expect(wrote.contains("1 domains, 2 routes"), "\(wrote)")
        let exported = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(try ManifestSchemaTests.schema.violation(in: Array(exported)) == nil)
        let printed = try await session.ok(["export", "badoo"])
        #expect(Data(printed.utf8) == exported)

        let same = try await session.run(["plan", file, "--detailed-exitcode"])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("No changes"), "\(same.stdout)")

        // One route's since changed, one route added after it.
        var manifest = try Manifest(strictJSON: exported)
        manifest.routes[0].platforms[.ios] = VersionRange(since: try Version("5.1"))
        manifest.routes.insert(
            ManifestRoute(
                id: "lookalikes", pattern: URLPattern(path: "/l/a/*"),
                platforms: [.ios: VersionRange(since: try Version("5.12.0"))]), at: 1)
        try ManifestCommands.encode(manifest, pretty: true).write(to: URL(fileURLWithPath: file))
        let planFile = directory.appendingPathComponent("plan.json").path
        let edited = try await session.run(["plan", file, "--detailed-exitcode", "--out", planFile])
        #expect(edited.status == 2, "\(edited.stdout)\(edited.stderr)")
        let lines = edited.stdout.split(separator: "\n").map(String.init).filter { "+~-".contains($0.prefix(1)) }
        #expect(lines == ["~ route profile: since ios 5.0 → 5.1", "+ route lookalikes /l/a/* (ios 5.12.0+)"])
        #expect(edited.stdout.contains("Plan: 1 to add, 1 to change, 0 to move, 0 to remove."))
        let saved = try Data(contentsOf: URL(fileURLWithPath: planFile))
        #expect(try ManifestSchemaTests.schema.violation(in: Array(saved), definition: "Plan") == nil)

        // Without --detailed-exitcode, a plan with changes is a success; --json prints the schema's Plan.
        let json = try await session.run(["plan", file, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try ManifestSchemaTests.schema.violation(in: Array(json.stdout.utf8), definition: "Plan") == nil)
        let plan = try JSONDecoder().decode(ManifestPlan.self, from: Data(json.stdout.utf8))
        #expect(plan.changes.map(\.id) == ["profile", "lookalikes"])
        #expect(plan.basis.routes == 2)

        // The registry moves on: the plan's recorded state says so.
        try await session.ok(["route", "add", "badoo", "later", "/later/*", "--since", "ios=6.0"])
        let moved = try await session.run(["plan", file, "--json"])
        let after = try JSONDecoder().decode(ManifestPlan.self, from: Data(moved.stdout.utf8))
        #expect(after.basis.fingerprint != plan.basis.fingerprint)
        #expect(after.notInManifest == [.init(kind: .route, id: "later", managed: false)])
    }

    @Test func aMalformedManifestExitsOneNamingTheMember() async throws {
        let server = try TestRegistryServer(suite: "routereg_manifest_bad")
        defer { server.shutdown() }
        let session = ReleaseDayTests.Session(server: server)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let text = """
            {"app": {"id": "badoo"}, "routes": [
              {"id": "a", "pattern": {"path": "/a/*"}},
              {"id": "b", "pattern": {"path": "/b/*"}, "platforms": {"ios": {"sinse": "5.0"}}}]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let result = try await session.run(["plan", file, "--detailed-exitcode"])
        #expect(result.status == 1)
        #expect(
            result.stderr == "error: \(file): routes[1].platforms.ios.sinse: unknown member (did you mean since?)\n",
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        // The schema refuses it too, naming the same member.
        #expect(
            try ManifestSchemaTests.schema.violation(in: Array(text.utf8))?.contains("routes[1].platforms.ios") == true)
        // A usage mistake is an error as well, never "changes".
        let usage = try await session.run(["plan", "--detailed-exitcode"])
        #expect(usage.status == 1, "\(usage.stderr)")
    }
}
