import Testing

@testable import routereg

@Suite("Argument parser")
struct ArgumentParserTests {
    let flags: [FlagSpec] = [
        .value("since", "PLATFORM=VERSION", "", repeatable: true),
        .value("comment", "TEXT", ""),
        .bool("exclude", ""),
        FlagSpec(name: "help", short: "h", kind: .bool, repeatable: false, summary: ""),
    ]
    let positionals = [
        PositionalSpec(name: "APP", summary: ""), PositionalSpec(name: "ID", summary: ""),
        PositionalSpec(name: "PATTERN", summary: "", optional: true),
    ]

    func parse(_ tokens: [String]) throws(UsageError) -> ParsedArguments {
        try ArgumentParser.parse(tokens, flags: flags, positionals: positionals, command: "routereg route add")
    }

    @Test func valuesInBothSpellingsAndRepeatedFlagsKeepTheirOrder() throws {
        let parsed = try parse(["badoo", "--since", "ios=5.12.0", "x", "--since=android=51200", "--comment=a=b"])
        #expect(parsed.positionals == ["badoo", "x"])
        #expect(parsed.values("since") == ["ios=5.12.0", "android=51200"])
        #expect(parsed.value("comment") == "a=b")
        #expect(!parsed.has("exclude"))
    }

    @Test func booleansAcceptExplicitTrueAndFalse() throws {
        #expect(try parse(["a", "b", "--exclude"]).bool("exclude"))
        #expect(try parse(["a", "b", "--exclude=true"]).bool("exclude"))
        let off = try parse(["a", "b", "--exclude=false"])
        #expect(off.has("exclude") && !off.bool("exclude"))
        #expect(throws: UsageError("--exclude takes no value (got \"yes\"); use --exclude or --exclude=false")) {
            try parse(["a", "b", "--exclude=yes"])
        }
    }

    @Test func everythingAfterTheTerminatorIsPositional() throws {
        let parsed = try parse(["a", "--", "--not-a-flag", "-h"])
        #expect(parsed.positionals == ["a", "--not-a-flag", "-h"])
        #expect(!parsed.helpRequested)
    }

    @Test func helpWinsOverOtherMistakes() throws {
        #expect(try parse(["--bogus", "-h"]).helpRequested)
        #expect(try parse(["--help"]).helpRequested)
    }

    @Test func aDashAndNegativeNumbersAreValues() throws {
        #expect(try parse(["a", "b", "--comment", "-"]).value("comment") == "-")
        #expect(try parse(["a", "b", "--comment", "-5"]).value("comment") == "-5")
    }

    @Test(arguments: [
        (["a", "b", "--bogus"], "unknown flag --bogus for 'routereg route add' (see 'routereg route add --help')"),
        (["a", "b", "-x"], "unknown flag -x for 'routereg route add' (see 'routereg route add --help')"),
        (["a", "b", "--comment"], "--comment needs a value (TEXT)"),
        (["a", "b", "--comment", "--exclude"], "--comment needs a value (TEXT)"),
        (["a", "b", "--comment", "x", "--comment", "y"], "--comment given more than once"),
        (["a"], "missing argument ID for 'routereg route add' (see 'routereg route add --help')"),
        ([], "missing argument APP for 'routereg route add' (see 'routereg route add --help')"),
        (["a", "b", "c", "d"], "unexpected argument \"d\" for 'routereg route add'"),
    ])
    func usageErrorsNameTheProblem(tokens: [String], message: String) {
        #expect(throws: UsageError(message)) { try parse(tokens) }
    }

    @Test func variadicPositionalsTakeTheRestAndNeedOne() throws {
        let specs = [
            PositionalSpec(name: "APP", summary: ""), PositionalSpec(name: "URL", summary: "", variadic: true),
        ]
        let parsed = try ArgumentParser.parse(["badoo", "u1", "u2", "u3"], flags: [], positionals: specs, command: "c")
        #expect(parsed.positionals == ["badoo", "u1", "u2", "u3"])
        #expect(throws: UsageError("missing argument URL for 'c' (see 'c --help')")) {
            try ArgumentParser.parse(["badoo"], flags: [], positionals: specs, command: "c")
        }
    }
}
