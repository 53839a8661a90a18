import Foundation
import Testing

@testable import routereg

/// `routereg aasa check`, in process through the CLI's entry point (every path through the command) and
/// through the built binary (stdout, stderr and exit status exactly as a person sees them).
@Suite struct AASACheckCommandTests {
    static let appID = "ABCDE12345.com.example.app"
    static let document = """
        {"applinks": {"details": [
            {"appIDs": ["ABCDE12345.com.example.app"], "components": [
                {"#": "no_universal_links", "exclude": true},
                {"/": "/buy/*"},
                {"/": "/help/website/*", "exclude": true},
                {"/": "/Help/*", "?": {"articleNumber": "????"}, "caseSensitive": false}
            ]},
            {"appID": "ABCDE12345.com.example.legacy", "paths": ["NOT /wwdc/internal/*", "/wwdc/*"]}
        ]}, "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}
        """

    /// Writes `text` to a fresh temporary file and returns its path.
    static func temporaryFile(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-check-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func runInProcess(_ arguments: [String], stdin: String = "") -> Run {
        let console = Console.captured()
        let environment = CLIEnvironment(
            variables: [:], stdoutIsTTY: false, now: Date(), readStandardInput: { Data(stdin.utf8) })
        let status = CLI.run(["aasa", "check"] + arguments, console: console, environment: environment)
        return Run(status: status, stdout: console.output, stderr: console.errorOutput)
    }

    @Test func reportsTheDecidingRuleForEachURL() throws {
        let file = try Self.temporaryFile(Self.document)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = Self.runInProcess([
            file, "--app", Self.appID, "https://example.com/buy/42", "https://example.com/buy/1#no_universal_links",
            "https://example.com/help/1?articleNumber=4815", "https://example.com/elsewhere",
        ])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(
            run.stdout == """
                match     https://example.com/buy/42
                          a rule matched: applinks.details[0].components[1] {"/":"/buy/*"}
                exclude   https://example.com/buy/1#no_universal_links
                          an exclude rule matched: applinks.details[0].components[0] {"#":"no_universal_links","exclude":true}
                match     https://example.com/help/1?articleNumber=4815
                          a rule matched: applinks.details[0].components[3] {"/":"/Help/*","?":{"articleNumber":"????"},"caseSensitive":false} (caseSensitive false, percentEncoded true)
                no_match  https://example.com/elsewhere
                          no rule matched (4 rules for the app)

                """)
    }

    @Test func explainsWhyNothingMatched() throws {
        let file = try Self.temporaryFile(Self.document)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let unlisted = Self.runInProcess([file, "--app", "ZZZZZ99999.com.other", "https://example.com/buy/1"])
        #expect(unlisted.status == 0)
        #expect(unlisted.stdout.contains("app ID ZZZZZ99999.com.other not listed in applinks"))
        let otherHost = Self.runInProcess([
            file, "--app", Self.appID, "--domain", "Example.com", "https://evil.test/buy/1",
        ])
        #expect(otherHost.stdout.contains("no_match  https://evil.test/buy/1"))
        #expect(otherHost.stdout.contains("host evil.test differs from --domain example.com"))
        let sameHost = Self.runInProcess([file, "--app", Self.appID, "--domain=example.com", "https://EXAMPLE.com/buy"])
        #expect(sameHost.stdout.hasPrefix("match "))
    }

    @Test func readsLegacyPathsAndStandardInput() {
        let run = Self.runInProcess(
            ["-", "--app", "ABCDE12345.com.example.legacy", "https://example.com/wwdc/internal/x"], stdin: Self.document
        )
        #expect(run.status == 0)
        #expect(run.stdout.contains("exclude   https://example.com/wwdc/internal/x"))
        #expect(run.stdout.contains("applinks.details[1].paths[0] \"NOT /wwdc/internal/*\""))
    }

    @Test func printsJSONForScripts() throws {
        let file = try Self.temporaryFile(Self.document)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = Self.runInProcess([
            "--json", file, "--app", Self.appID, "https://example.com/buy/42", "https://example.com/nothing",
        ])
        #expect(run.status == 0)
        let results = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(results.count == 2)
        #expect(results[0]["outcome"] as? String == "match")
        #expect(results[0]["detailIndex"] as? Int == 0)
        #expect(results[0]["ruleIndex"] as? Int == 1)
        #expect(results[0]["location"] as? String == "applinks.details[0].components[1]")
        #expect((results[0]["rule"] as? [String: Any])?["/"] as? String == "/buy/*")
        #expect(results[0]["url"] as? String == "https://example.com/buy/42")
        #expect(results[1]["outcome"] as? String == "no_match")
        #expect(results[1]["ruleIndex"] == nil)
        #expect(results[1]["reason"] as? String == "no rule matched (4 rules for the app)")
    }

    @Test(arguments: [
        ([String](), "missing FILE"),
        (["file.json", "https://example.com/"], "missing --app APPID"),
        (["file.json", "--app", "A.b"], "missing URL to check"),
        (["file.json", "--app", "A.b", "--frobnicate", "https://example.com/"], "unknown option --frobnicate"),
        (["file.json", "--app"], "--app needs an app ID"),
        (["file.json", "--app=", "https://example.com/"], "--app needs an app ID"),
        (["file.json", "--app", "A.b", "--domain"], "--domain needs a host"),
        (["file.json", "--app", "A.b", "--json=1", "https://example.com/"], "--json takes no value"),
        (["file.json", "--app", "A.b", "--frob=2", "https://example.com/"], "unknown option --frob"),
        (["file.json", "--app", "A.b", "-x", "https://example.com/"], "unknown option -x"),
        (["file.json", "--app", "A.b", "not a url"], "not a URL: not a url"),
    ])
    func usageErrorsExitTwoWithOneLine(_ arguments: [String], _ problem: String) {
        let run = Self.runInProcess(arguments)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "routereg aasa check: \(problem) (see routereg aasa check --help)\n")
    }

    @Test func unreadableOrMalformedFilesExitOne() throws {
        let missing = Self.runInProcess(["/nonexistent/aasa.json", "--app", "A.b", "https://example.com/"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "routereg aasa check: cannot read /nonexistent/aasa.json: no such file\n")

        let file = try Self.temporaryFile(
            #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": 7}]}]}}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let malformed = Self.runInProcess([file, "--app", "A.b", "https://example.com/"])
        #expect(malformed.status == 1)
        #expect(
            malformed.stderr
                == "routereg aasa check: \(file) is not a usable AASA file: applinks.details[0].components[0][\"/\"] is not a string\n"
        )
        let notJSON = try Self.temporaryFile("{nope")
        defer { try? FileManager.default.removeItem(atPath: notJSON) }
        #expect(
            Self.runInProcess([notJSON, "--app", "A.b", "https://example.com/"]).stderr.hasSuffix(
                "not valid JSON: line 1, column 2 (byte 1): expected a member name in double quotes, found 'n'\n"))
    }

    /// iOS reads the file as strict JSON and ignores all of it for a trailing comma; Foundation on Linux reads
    /// such a file, so `aasa check` used to evaluate it as if it were valid.
    @Test func aTrailingCommaIsRefusedSayingWhere() throws {
        let file = try Self.temporaryFile(
            "{\"applinks\": {\"details\": [{\"appIDs\": [\"A.b\"],\n  \"components\": [{\"/\": \"/u/*\"},\n  ]}]}}")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = Self.runInProcess([file, "--app", "A.b", "https://example.com/u/1"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr
                == "routereg aasa check: \(file) is not a usable AASA file: not valid JSON: line 2, column 31 (byte 76): "
                + "trailing comma before ']': JSON allows no comma after the last element\n")
    }

    /// The help comes from the command table (`Golden/help/aasa-check.txt` holds all of it).
    @Test func helpPrintsUsageWithAnExample() {
        let run = Self.runInProcess(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Usage: routereg aasa check FILE URL... [flags]"))
        #expect(run.stdout.contains("  --app APPID "))
        #expect(run.stdout.contains("Example:\n  routereg aasa check "))
    }
}

/// The built `routereg` binary, run through `BinaryRunner` with this process's environment.
enum RouteregBinary {
    /// True when the binary exists and `routereg aasa check --help` prints this command's usage.
    static func supportsAASACheck() async -> Bool {
        guard let help = try? await run(["aasa", "check", "--help"]) else { return false }
        return help.status == 0 && help.stdout.hasPrefix("Usage: routereg aasa check")
    }

    static func run(_ arguments: [String]) async throws -> AASACheckCommandTests.Run {
        let run = try await BinaryRunner.run(arguments, environment: ProcessInfo.processInfo.environment)
        return AASACheckCommandTests.Run(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }
}

@Suite(.enabled("routereg does not route `aasa check` yet") { await RouteregBinary.supportsAASACheck() })
struct AASACheckBinaryTests {
    @Test func evaluatesURLsThroughTheBinary() async throws {
        let file = try AASACheckCommandTests.temporaryFile(AASACheckCommandTests.document)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try await RouteregBinary.run([
            "aasa", "check", file, "--app", AASACheckCommandTests.appID, "https://example.com/buy/42",
            "https://example.com/help/website/faq",
        ])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(
            run.stdout == """
                match     https://example.com/buy/42
                          a rule matched: applinks.details[0].components[1] {"/":"/buy/*"}
                exclude   https://example.com/help/website/faq
                          an exclude rule matched: applinks.details[0].components[2] {"/":"/help/website/*","exclude":true}

                """)
    }

    @Test func usageErrorExitsTwoWithOneLineOnStandardError() async throws {
        let run = try await RouteregBinary.run(["aasa", "check", "file.json", "https://example.com/"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "routereg aasa check: missing --app APPID (see routereg aasa check --help)\n")
    }

    @Test func unreadableFileExitsOne() async throws {
        let run = try await RouteregBinary.run([
            "aasa", "check", "/nonexistent/aasa.json", "--app", "A.b", "https://x.test/",
        ])
        #expect(run.status == 1)
        #expect(run.stderr == "routereg aasa check: cannot read /nonexistent/aasa.json: no such file\n")
    }

    @Test func jsonOutputParses() async throws {
        let file = try AASACheckCommandTests.temporaryFile(AASACheckCommandTests.document)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try await RouteregBinary.run([
            "aasa", "check", "--json", file, "--app", AASACheckCommandTests.appID, "https://example.com/x",
        ])
        #expect(run.status == 0)
        let results = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        #expect(results?.first?["outcome"] as? String == "no_match")
    }
}
