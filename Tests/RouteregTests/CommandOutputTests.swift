import Foundation
import RouteCore
import RouteRegistryClient
import Testing

@testable import routereg

/// Commands in-process against scripted server answers: the human output (golden files), the params
/// sent, `--json` printing the result unchanged, and exit codes for each kind of failure.
@Suite("Command output")
struct CommandOutputTests {
    @Test func appGet() {
        let result = runCLI(
            ["app", "get", "badoo"], transport: ScriptedTransport(["Apps.Get": [.result(Fixtures.app)]]))
        #expect(result.status == 0 && result.stderr.isEmpty)
        Golden.check(result.stdout, "app-get.txt")
    }

    @Test func routeListInEvaluationOrder() {
        let transport = ScriptedTransport(["Routes.List": [.result(Fixtures.routes)]])
        let result = runCLI(["route", "list", "badoo"], transport: transport)
        #expect(result.status == 0)
        #expect(transport.calls.map(\.params) == [#"{"app":"badoo","pageSize":1000}"#])
        Golden.check(result.stdout, "route-list.txt")
    }

    @Test func jsonPrintsTheResultUnchanged() {
        for (arguments, method, raw) in [
            (["route", "list", "badoo"], "Routes.List", Fixtures.routes),
            (["matrix", "badoo", "ios"], "Matrix.Get", Fixtures.matrix),
            (["release", "publish", "badoo", "ios", "5.12.0"], "Releases.Publish", Fixtures.publish),
        ] {
            let result = runCLI(arguments + ["--json"], transport: ScriptedTransport([method: [.result(raw)]]))
            #expect(result.status == 0)
            #expect(result.stdout == raw + "\n", "\(arguments)")
        }
    }

    @Test func routeAddSendsThePatternVersionsAndPosition() throws {
        let transport = ScriptedTransport(["Routes.Create": [.result(Fixtures.lookalikes)]])
        let result = runCLI(
            [
                "route", "add", "badoo", "lookalikes", "/l/a/*", "--since", "ios=5.12.0", "--query", "ref=*",
                "--comment", "Lookalikes", "--before", "help",
            ], transport: transport)
        #expect(result.status == 0)
        let sent = try JSONDecoder().decode(API.RoutesCreate.Input.self, from: Data(transport.calls[0].params.utf8))
        #expect(sent.app == "badoo" && sent.before == "help")
        #expect(sent.route.pattern == URLPattern(path: "/l/a/*", query: .items(["ref": "*"])))
        #expect(sent.route.platforms == [.ios: VersionRange(since: try Version("5.12.0"))])
        Golden.check(result.stdout, "route-add.txt")
    }

    @Test func routeMoveSendsTheWholeNewOrder() {
        let transport = ScriptedTransport([
            "Routes.List": [.result(Fixtures.routes)], "Routes.Reorder": [.result(Fixtures.routes)],
        ])
        let result = runCLI(["route", "move", "badoo", "lookalikes", "--before", "profile"], transport: transport)
        #expect(result.status == 0)
        // A write carries a fresh idempotency key (so the CLI can retry it safely); the rest is the order.
        let sent = transport.calls.last?.params ?? ""
        let key = sent.firstMatch(of: #/"requestId":"(cli-[0-9a-f-]{36})"/#)?.output.1
        #expect(key != nil, "\(sent)")
        #expect(
            sent.replacingOccurrences(of: #","requestId":"\#(key.map(String.init) ?? "")""#, with: "")
                == #"{"app":"badoo","order":["help","lookalikes","profile"]}"#)
    }

    @Test func aWriteIsRetriedWithTheSameRequestIDWhenTheRegistryIsUnavailable() {
        let transport = ScriptedTransport([
            "Routes.List": [.result(Fixtures.routes)],
            "Routes.Reorder": [
                .error(RegistryError(.unavailable, "the database is unavailable; try again")), .result(Fixtures.routes),
            ],
        ])
        let result = runCLI(["route", "move", "badoo", "lookalikes", "--before", "profile"], transport: transport)
        #expect(result.status == 0, "\(result.stderr)")
        let sends = transport.calls.filter { $0.method == "Routes.Reorder" }.map(\.params)
        #expect(sends.count == 2)
        #expect(sends.first?.contains(#""requestId":"cli-"#) == true)
        #expect(Set(sends).count == 1, "the retry must carry the same requestId: \(sends)")
    }

    @Test func aReadIsRetriedAndAWriteWithoutAKeyIsNot() {
        let unavailable = RegistryError(.unavailable, "the database is unavailable; try again")
        let reads = ScriptedTransport(["Apps.List": [.error(unavailable), .result(#"{"apps":[],"nextPageToken":""}"#)]])
        let listed = runCLI(["app", "list", "--json"], transport: reads)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(reads.calls.filter { $0.method == "Apps.List" }.count == 2)
        #expect(!reads.calls.contains { $0.params.contains("requestId") }, "a read takes no requestId")

        // A new token cannot be answered again (its secret is shown once), so one failed attempt is the answer.
        let tokens = ScriptedTransport(["Tokens.Create": [.error(unavailable), .result("{}")]])
        let created = runCLI(["token", "create", "ci-release"], transport: tokens)
        #expect(created.status != 0)
        #expect(tokens.calls.filter { $0.method == "Tokens.Create" }.count == 1)
    }

    /// Which methods the CLI sends again comes from the descriptors' traits alone.
    @Test func theRetriedMethodsAreTheReadsAndTheKeyedWrites() {
        for method in API.all {
            #expect(IdempotentRetry.retries(method.name) == (!method.isWrite || method.isIdempotent), "\(method.name)")
        }
        #expect(IdempotentRetry.retries("Tokens.List") && IdempotentRetry.retries("Associations.Preview"))
        #expect(!IdempotentRetry.retries("Tokens.Create") && !IdempotentRetry.retries("No.Such"))
    }

    @Test func publishPrintsRevisionsDiffsAndLint() {
        let transport = ScriptedTransport([
            "Releases.Publish": [.result(Fixtures.publish)], "Associations.Diff": [.result(Fixtures.diff)],
        ])
        let result = runCLI(["release", "publish", "badoo", "ios", "5.12.0"], transport: transport)
        #expect(result.status == 0)
        // Only the changed domain is diffed, against its previous revision.
        #expect(transport.calls.map(\.method) == ["Releases.Publish", "Associations.Diff"])
        #expect(transport.calls[1].params == #"{"fromRevision":2,"host":"m.badoo.com","kind":"aasa","toRevision":3}"#)
        Golden.check(result.stdout, "release-publish.txt")
    }

    @Test func dryRunPreviewsWithoutPublishing() {
        let transport = ScriptedTransport(["Associations.Preview": [.result(Fixtures.preview)]])
        let result = runCLI(["release", "publish", "badoo", "ios", "5.12.0", "--dry-run"], transport: transport)
        #expect(result.status == 0)
        #expect(transport.calls.map(\.method) == ["Associations.Preview"])
        #expect(transport.calls[0].params.contains(#""action":"publish""#))
        Golden.check(result.stdout, "release-publish-dry-run.txt")
    }

    @Test func matrixDrawsRoutesByLiveVersions() {
        let result = runCLI(
            ["matrix", "badoo", "ios"], transport: ScriptedTransport(["Matrix.Get": [.result(Fixtures.matrix)]]))
        Golden.check(result.stdout, "matrix.txt")
    }

    @Test func matrixIsColouredOnlyOnATerminal() {
        let transport = ScriptedTransport(["Matrix.Get": [.result(Fixtures.matrix)]])
        #expect(runCLI(["matrix", "badoo", "ios"], transport: transport, tty: true).stdout.contains("\u{1B}[32m✓"))
        let noColor = runCLI(
            ["matrix", "badoo", "ios"], transport: transport, environment: ["NO_COLOR": "1"], tty: true)
        #expect(!noColor.stdout.contains("\u{1B}["))
    }

    @Test func canOpenExplainsEachURL() {
        let transport = ScriptedTransport([
            "CanOpen.Check": [.result(Fixtures.fallbackDecision), .result(Fixtures.openDecision)]
        ])
        let result = runCLI(
            ["can-open", "badoo", "ios", "5.11.0", "https://m.badoo.com/l/a/42", "https://m.badoo.com/u/1"],
            transport: transport)
        #expect(result.status == 0)
        Golden.check(result.stdout, "can-open.txt")
        let json = runCLI(
            ["can-open", "badoo", "ios", "5.11.0", "https://a", "https://b", "--json"],
            transport: ScriptedTransport(["CanOpen.Check": [.result(Fixtures.openDecision)]]))
        #expect(json.stdout == "[\(Fixtures.openDecision),\(Fixtures.openDecision)]\n")
    }

    @Test func aasaCommands() {
        let transport = ScriptedTransport([
            "Associations.Get": [.result(Fixtures.document)], "Associations.Diff": [.result(Fixtures.diff)],
            "Associations.ListRevisions": [.result(Fixtures.revisions)],
        ])
        Golden.check(runCLI(["aasa", "show", "m.badoo.com"], transport: transport).stdout, "aasa-show.txt")
        Golden.check(runCLI(["aasa", "revisions", "m.badoo.com"], transport: transport).stdout, "aasa-revisions.txt")
        let diff = runCLI(["aasa", "diff", "m.badoo.com"], transport: transport)
        #expect(transport.calls.last?.params == #"{"fromRevision":2,"host":"m.badoo.com","toRevision":3}"#)
        Golden.check(diff.stdout, "aasa-diff.txt")
    }

    @Test func auditAndReleases() {
        let transport = ScriptedTransport([
            "Audit.List": [.result(Fixtures.audit)], "Releases.List": [.result(Fixtures.releases)],
        ])
        Golden.check(runCLI(["audit"], transport: transport).stdout, "audit.txt")
        Golden.check(runCLI(["release", "list", "badoo"], transport: transport).stdout, "release-list.txt")
    }

    @Test func serverRefusalsExitOneNamingTheField() {
        let refusal = RegistryError.invalidArgument(field: "route.platforms.ios.since", "must not be after until")
        let result = runCLI(
            ["route", "add", "badoo", "x", "/x/*", "--since", "ios=7"],
            transport: ScriptedTransport(["Routes.Create": [.error(refusal)]]))
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr == "error: route.platforms.ios.since: must not be after until\n")
        let missing = runCLI(
            ["app", "get", "nope"],
            transport: ScriptedTransport(["Apps.Get": [.error(RegistryError.notFound("apps/nope"))]]))
        #expect(missing.status == 1 && missing.stderr == "error: apps/nope not found\n")
    }

    @Test func connectionProblemsExitThree() {
        for failure in [ClientError.connectionFailed(reason: "connection refused"), .timedOut, .httpStatus(502)] {
            let result = runCLI(["app", "list"], transport: ScriptedTransport(["Apps.List": [.error(failure)]]))
            #expect(result.status == 3, "\(failure)")
            #expect(result.stderr == "error: \(failure.description)\n")
        }
    }

    @Test func usageErrorsNeverReachTheServer() {
        let transport = ScriptedTransport([:])
        let result = runCLI(["route", "switch-off", "badoo", "x", "web", "1"], transport: transport)
        #expect(result.status == 2)
        #expect(result.stderr == "error: PLATFORM: \"web\" is not a platform (ios or android)\n")
        #expect(transport.calls.isEmpty)
    }
}

@Suite("AASA import command")
struct AASAImportCommandTests {
    @Test func needsTheAppAndCreatesEachRuleInOrder() throws {
        let missing = runCLI(["aasa", "import", "x.json"], transport: ScriptedTransport([:]))
        #expect(missing.status == 2 && missing.stderr == "error: missing flag --app APP for 'routereg aasa import'\n")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.badoo.Badoo"],"components":[{"/":"/help/*","exclude":true},{"/":"/u/*"}]}]}}"#
                .utf8
        ).write(to: file)
        let transport = ScriptedTransport([
            "Apps.Get": [.result(Fixtures.app)],
            "Routes.BatchCreate": [.result(#"{"routes":[\#(Fixtures.lookalikes),\#(Fixtures.lookalikes)]}"#)],
        ])
        let result = runCLI(
            ["aasa", "import", file.path, "--app", "badoo", "--since", "ios=5.0", "--before", "profile"],
            transport: transport)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Created 2 routes in badoo from"))
        // One call, so the server creates all of the file's rules or none of them.
        #expect(transport.calls.map(\.method) == ["Apps.Get", "Routes.BatchCreate"])
        let input = try JSONDecoder().decode(
            API.RoutesBatchCreate.Input.self, from: Data(transport.calls[1].params.utf8))
        #expect(input.app == "badoo" && input.before == "profile")
        let routes = input.routes
        #expect(routes.map(\.id) == ["imported-1", "imported-2"])
        #expect(routes.map(\.action) == [.exclude, .open])
        #expect(routes[1].platforms == [.ios: VersionRange(since: try Version("5.0"))])
        let dryRun = ScriptedTransport(["Apps.Get": [.result(Fixtures.app)]])
        let preview = runCLI(["aasa", "import", file.path, "--app", "badoo", "--dry-run"], transport: dryRun)
        #expect(preview.stdout.hasPrefix("Would create 2 routes in badoo from"))
        #expect(dryRun.calls.map(\.method) == ["Apps.Get"])

        let taken = ScriptedTransport([
            "Apps.Get": [.result(Fixtures.app)],
            "Routes.BatchCreate": [
                .error(
                    RegistryError(
                        .alreadyExists, "apps/badoo/routes/imported-1 already exists",
                        fieldViolations: [FieldViolation(field: "routes[0].id", description: "is taken")]))
            ],
        ])
        let again = runCLI(["aasa", "import", file.path, "--app", "badoo"], transport: taken)
        #expect(again.status == 1)
        #expect(again.stderr.contains("nothing was imported"), "\(again.stderr)")
        #expect(again.stderr.contains("--id-prefix"), "\(again.stderr)")
    }
}
