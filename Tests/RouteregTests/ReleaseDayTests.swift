import Foundation
import RegistryTesting
import Testing

/// The README's "release day" walkthrough and every command, through the built binary against a real
/// server (in-process RPC server on a loopback port, real PostgreSQL).
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct ReleaseDayTests {
    /// Runs `routereg` against `server` as its admin; records `$ command` and its output in `transcript`.
    final class Session {
        let server: TestRegistryServer
        var transcript = ""

        init(server: TestRegistryServer) { self.server = server }

        var environment: [String: String] {
            ["ROUTEREG_SERVER": server.baseURL.absoluteString, "ROUTEREG_TOKEN": TestRegistryServer.adminToken]
        }

        /// Runs a command that must succeed and returns its stdout.
        @discardableResult
        func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            let result = try await BinaryRunner.run(arguments, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.isEmpty, sourceLocation: sourceLocation)
            transcript +=
                "$ routereg " + arguments.map(Self.quoted).joined(separator: " ") + "\n" + result.stdout + "\n"
            return result.stdout
        }

        /// Runs a command and returns everything.
        func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> RunResult {
            try await BinaryRunner.run(arguments, environment: environment.merging(extra) { $1 })
        }

        static func quoted(_ word: String) -> String {
            word.contains(where: { " *?'".contains($0) }) ? "'\(word)'" : word
        }
    }

    /// What varies between runs (etags, relative times) replaced by placeholders. Runs of spaces collapse to
    /// two, since a placeholder's width differs from the text it replaces (alignment is tested elsewhere).
    static func normalized(_ text: String) -> String {
        var text = text
        for (pattern, replacement) in [
            (#"[0-9a-f]{12}…"#, "<etag>"),
            (#"(just now|\d+ (second|minute|hour)s? ago)"#, "<when>"), (" {2,}", "  "),
        ] {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    @Test func releaseDayWalkthrough() async throws {
        let server = try TestRegistryServer(suite: "routereg_release_day")
        defer { server.shutdown() }
        let session = Session(server: server)

        // Before release day: the app, its domain, two routes, 5.11.0 live.
        try await session.ok([
            "app", "create", "badoo", "--display-name", "Badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo",
        ])
        try await session.ok(["domain", "add", "m.badoo.com", "--app", "badoo"])
        try await session.ok([
            "route", "add", "badoo", "profile", "/u/*", "--since", "ios=5.0", "--comment", "Profiles",
        ])
        try await session.ok(["route", "add", "badoo", "help", "/help/*", "--exclude", "--before", "profile"])
        try await session.ok(["release", "publish", "badoo", "ios", "5.11.0"])

        // Release day: 5.12.0 handles lookalikes.
        try await session.ok([
            "route", "add", "badoo", "lookalikes", "/l/a/*", "--since", "ios=5.12.0", "--comment", "Lookalikes",
        ])
        let preview = try await session.ok(["release", "publish", "badoo", "ios", "5.12.0", "--dry-run"])
        #expect(preview.contains("m.badoo.com aasa: would change"))
        #expect(preview.contains(#"+ {"/":"/l/a/*""#))
        let unchanged = try await session.ok(["aasa", "revisions", "m.badoo.com"])
        #expect(!unchanged.contains("5.12.0"), "a dry run must not publish")
        let published = try await session.ok(["release", "publish", "badoo", "ios", "5.12.0"])
        #expect(published.contains("Published badoo ios 5.12.0: live."))
        #expect(published.contains(#"+ {"/":"/l/a/*""#))

        let old = try await session.ok(["can-open", "badoo", "ios", "5.11.0", "https://m.badoo.com/l/a/42"])
        #expect(old.contains("✗ open in browser: unsupported_version (route lookalikes, supported since 5.12.0)"))
        #expect(old.contains("fallback: https://m.badoo.com/l/a/42?ul_fallback=1"))
        let new = try await session.ok(["can-open", "badoo", "ios", "5.12.0", "https://m.badoo.com/l/a/42"])
        #expect(new.contains("✓ open in app (route lookalikes)"))
        try await session.ok(["matrix", "badoo", "ios"])

        // 5.12.0 crashes on lookalikes: switch it off; 5.12.0 falls back and the AASA drops /l/a/*.
        try await session.ok([
            "route", "switch-off", "badoo", "lookalikes", "ios", "5.12.0", "--reason", "crash in 5.12.0",
        ])
        let killed = try await session.ok(["can-open", "badoo", "ios", "5.12.0", "https://m.badoo.com/l/a/42"])
        #expect(killed.contains("switched_off"))
        let diff = try await session.ok(["aasa", "diff", "m.badoo.com"])
        #expect(diff.contains(#"- {"/":"/l/a/*""#))
        try await session.ok(["matrix", "badoo", "ios"])
        try await session.ok(["audit"])

        Golden.check(Self.normalized(session.transcript), "release-day.txt")
    }

    @Test func jsonIsTheServersResult() async throws {
        let server = try TestRegistryServer(suite: "routereg_json")
        defer { server.shutdown() }
        let session = Session(server: server)
        try await session.ok(["app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo"])
        try await session.ok(["domain", "add", "m.badoo.com", "--app", "badoo"])
        try await session.ok(["route", "add", "badoo", "profile", "/u/*", "--since", "ios=5.0"])
        try await session.ok(["release", "publish", "badoo", "ios", "5.11.0"])

        let reads: [([String], String, [String: Any])] = [
            (["app", "get", "badoo"], "Apps.Get", ["app": "badoo"]),
            (["route", "list", "badoo"], "Routes.List", ["app": "badoo", "pageSize": 1000]),
            (["route", "show", "badoo", "profile"], "Routes.Get", ["app": "badoo", "route": "profile"]),
            (["matrix", "badoo", "ios"], "Matrix.Get", ["app": "badoo", "platform": "ios"]),
            (["aasa", "show", "m.badoo.com"], "Associations.Get", ["host": "m.badoo.com"]),
            (["release", "list", "badoo"], "Releases.List", ["app": "badoo", "pageSize": 1000]),
            (
                ["canopen-table", "badoo", "ios", "5.11.0"], "CanOpen.GetTable",
                ["app": "badoo", "platform": "ios", "version": "5.11.0"]
            ),
        ]
        for (arguments, method, params) in reads {
            let printed = try await session.ok(arguments + ["--json"])
            let direct = try await server.result(method, params)
            let parsed = try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? NSDictionary
            #expect(parsed == direct as NSDictionary, "\(arguments)")
        }
    }

    @Test func everyCommandAgainstTheServer() async throws {
        let server = try TestRegistryServer(suite: "routereg_commands")
        defer { server.shutdown() }
        let session = Session(server: server)
        try await session.ok([
            "app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo", "--scheme", "badoo",
        ])
        #expect(try await session.ok(["app", "list"]).contains("badoo"))
        #expect(
            try await session.ok(["app", "update", "badoo", "--display-name", "Badoo"]).contains(
                "display name     Badoo"))
        try await session.ok(["domain", "add", "m.badoo.com", "--app", "badoo"])
        try await session.ok(["domain", "add", "badoo.com", "--app", "badoo"])
        #expect(try await session.ok(["domain", "list", "--app", "badoo"]).contains("m.badoo.com"))
        try await session.ok(["route", "add", "badoo", "profile", "/u/*", "--since", "ios=5.0"])
        try await session.ok(["route", "add", "badoo", "search", "/s/*", "--query", "q=?*", "--since", "ios=5.0"])
        try await session.ok(["route", "move", "badoo", "search", "--first"])
        #expect(try await session.ok(["route", "list", "badoo"]).contains("1  search"))
        #expect(try await session.ok(["route", "update", "badoo", "search", "--until", "ios=6.0"]).contains("5.0–6.0"))
        try await session.ok(["route", "show", "badoo", "search"])
        try await session.ok(["release", "publish", "badoo", "ios", "5.11.0"])
        try await session.ok(["route", "switch-off", "badoo", "search", "ios", "5.11.0"])
        #expect(
            try await session.ok(["route", "switch-on", "badoo", "search", "ios", "5.11.0"]).contains(
                "Switched off now: none"))
        try await session.ok(["route", "remove", "badoo", "search"])
        try await session.ok(["aasa", "show", "m.badoo.com"])
        try await session.ok(["aasa", "revisions", "m.badoo.com"])
        try await session.ok(["aasa", "preview", "badoo", "ios", "5.11.0", "--retire"])
        try await session.ok(["release", "retire", "badoo", "ios", "5.11.0"])
        #expect(try await session.ok(["release", "list", "badoo", "--state", "retired"]).contains("5.11.0"))
        let table = try await session.ok(["canopen-table", "badoo", "ios", "5.11.0"])
        #expect(table.contains("\"table\""))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.badoo.Badoo"],"components":[{"/":"/old/*","exclude":true},{"/":"/p/*","foo":1}]}]}}"#
                .utf8
        ).write(to: file)
        let imported = try await session.ok(["aasa", "import", file.path, "--app", "badoo", "--since", "ios=5.0"])
        #expect(imported.contains("Created 2 routes"))
        #expect(imported.contains("rule 2: key \"foo\" is not supported"))
        // The same file again: its ids are taken, and the whole import is refused, not half of it.
        let routesBefore = try await session.ok(["route", "list", "badoo", "--json"])
        let again = try await session.run(["aasa", "import", file.path, "--app", "badoo", "--since", "ios=5.0"])
        #expect(again.status == 1)
        #expect(
            again.stderr.contains("routes[0].id") && again.stderr.contains("nothing was imported"), "\(again.stderr)")
        #expect(try await session.ok(["route", "list", "badoo", "--json"]) == routesBefore)

        let created = try await session.ok(["token", "create", "ci-release", "--role", "releaser", "--json"])
        let token = try JSONSerialization.jsonObject(with: Data(created.utf8)) as? [String: Any]
        let id = (token?["token"] as? [String: Any])?["id"] as? String ?? ""
        #expect(try await session.ok(["token", "list"]).contains("ci-release"))
        #expect(try await session.ok(["token", "revoke", id]).contains("Revoked"))
        #expect(try await session.ok(["audit", "--resource", "apps/badoo"]).contains("Apps."))
        try await session.ok(["domain", "remove", "badoo.com"])
    }

    @Test func refusalsExitOneWithTheServersReason() async throws {
        let server = try TestRegistryServer(suite: "routereg_refusals")
        defer { server.shutdown() }
        let session = Session(server: server)
        try await session.ok(["app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo"])

        let missing = try await session.run(["app", "get", "nope"])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("error: ") && missing.stderr.hasSuffix("\n"))
        #expect(missing.stderr.split(separator: "\n").count == 1)

        let badRange = try await session.run(
            ["route", "add", "badoo", "r", "/r/*", "--since", "ios=6.0", "--until", "ios=5.0"])
        #expect(badRange.status == 1)
        #expect(badRange.stderr.hasPrefix("error: route.platforms.ios"), "\(badRange.stderr)")

        let anonymous = try await session.run(["app", "create", "other"], environment: ["ROUTEREG_TOKEN": ""])
        #expect(anonymous.status == 1)
        #expect(anonymous.stderr.contains("ROUTEREG_TOKEN"))
    }
}
