import Testing

@testable import routereg

@Suite("Command table")
struct CommandTableTests {
    let table = CommandTable.standard

    @Test func everyCommandTheIssueListsExists() {
        let expected = [
            "app create", "app get", "app list", "app update", "app delete", "domain add", "domain list",
            "domain remove", "route add", "route list", "route show", "route update", "route move",
            "route switch-off", "route switch-on", "route remove", "release publish", "release retire",
            "release list", "aasa show", "aasa revisions", "aasa diff", "aasa preview", "aasa check", "aasa import",
            "can-open", "matrix", "audit", "token create", "token list", "token revoke", "canopen-table", "serve",
            "migrate", "version", "help", "link create", "link list", "link get", "link stats", "link delete",
            "link import", "link resolve", "aasa status", "release status", "domain verify",
        ]
        let paths = Set(table.commands.map { $0.path.joined(separator: " ") })
        for command in expected { #expect(paths.contains(command), "missing \(command)") }
        #expect(paths.count == table.commands.count, "a path appears twice")
    }

    @Test func everyCommandHasAnExampleAndNoFlagClashesWithTheGlobalOnes() {
        let global = Set(CommandTable.globalFlags.map(\.name))
        for spec in table.commands {
            #expect(!spec.examples.isEmpty, "\(spec.displayName) has no example")
            for example in spec.examples {
                #expect(example.hasPrefix(spec.path.joined(separator: " ")), "\(spec.displayName): \(example)")
            }
            let names = spec.flags.map(\.name)
            #expect(Set(names).count == names.count, "\(spec.displayName) declares a flag twice")
            #expect(global.isDisjoint(with: names), "\(spec.displayName) redeclares a global flag")
            let variadic = spec.positionals.dropLast().filter(\.variadic)
            #expect(variadic.isEmpty, "\(spec.displayName): only the last positional may be variadic")
        }
    }

    @Test func globalFlagsMayComeBeforeTheCommand() throws {
        guard
            case .command(let spec, let rest) = try table.resolve([
                "--server", "http://x:1", "--json", "app", "get", "badoo",
            ])
        else {
            Issue.record("not resolved to a command")
            return
        }
        #expect(spec.path == ["app", "get"])
        #expect(rest == ["--server", "http://x:1", "--json", "badoo"])
    }

    @Test func aNounAloneIsAGroup() throws {
        guard case .group(let noun, let rest) = try table.resolve(["route", "--help"]) else {
            Issue.record("not a group")
            return
        }
        #expect(noun == "route" && rest == ["--help"])
    }

    @Test func unknownWordsAreUsageErrors() {
        #expect(throws: UsageError("unknown command \"frob\" (see 'routereg help')")) { try table.resolve(["frob"]) }
        #expect(throws: UsageError("unknown command \"route frob\" (see 'routereg route --help')")) {
            try table.resolve(["route", "frob"])
        }
    }

    @Test func helpTextsCarryUsageArgumentsAndExamples() {
        let help = HelpFormatter.command(table.command(["route", "add"])!)
        #expect(help.hasPrefix("Usage: routereg route add APP ID PATTERN [flags]\n"))
        #expect(help.contains("  --since PLATFORM=VERSION  first version that handles it"))
        #expect(help.contains("Examples:\n  routereg route add badoo lookalikes '/l/a/*'"))
        #expect(HelpFormatter.group("route", in: table).contains("  switch-off APP ROUTE PLATFORM VERSION..."))
    }
}
