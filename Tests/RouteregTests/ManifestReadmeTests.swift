import Foundation
import RegistryTesting
import Testing

/// The README's "Routes as code" section, as written.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct ManifestReadmeTests {
    /// The README's "Routes as code" commands, as written (their files in a scratch directory): an export
    /// plans no changes, so even the `--detailed-exitcode` line exits 0; applying it adopts every route, so the
    /// prune that follows removes nothing.
    @Test func readmeSectionRunsAsWritten() async throws {
        let server = try TestRegistryServer(suite: "routereg_manifest_readme")
        defer { server.shutdown() }
        let session = ReleaseDayTests.Session(server: server)
        try await session.ok(["app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo"])
        try await session.ok(["domain", "add", "m.badoo.com", "--app", "badoo"])
        try await session.ok(["route", "add", "badoo", "profile", "/u/*", "--since", "ios=5.0"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try ReadmeWalkthroughTests.block(after: "## Routes as code")
        #expect(lines.count == 6)
        for line in lines {
            let words = ReadmeWalkthroughTests.words(line).dropFirst().map { word in
                word.hasSuffix(".json") ? directory.appendingPathComponent(word).path : word
            }
            try await session.ok(Array(words))
        }
        let saved = try Data(contentsOf: directory.appendingPathComponent("plan.json"))
        #expect(try ManifestSchemaTests.schema.violation(in: Array(saved), definition: "Plan") == nil)
        let profile = try await server.result("Routes.Get", ["app": "badoo", "route": "profile"])
        #expect(profile["managedBy"] is [String: Any], "adopted by the apply")
        let audit = try await server.result("Audit.List", ["resource": "apps/badoo/routes", "pageSize": 10])
        let sources = (audit["entries"] as? [[String: Any]] ?? []).compactMap {
            ($0["after"] as? [String: Any])?["source"] as? String
        }
        #expect(sources == ["release-day"], "the README's apply named its source; the prune named none")
    }
}
