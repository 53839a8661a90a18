/// Help text for the root, a noun group and a command, all derived from the command table.
enum HelpFormatter {
    /// `routereg --help`: every noun and top-level command with its summary.
    static func root(_ table: CommandTable) -> String {
        var rows: [[String]] = table.groups.flatMap { group in
            let verbs = table.commands(in: group.name).map { $0.path[1] }.joined(separator: ", ")
            return [[group.name, group.summary], ["", "  " + verbs]]
        }
        rows += table.commands.filter { $0.path.count == 1 }.map { [$0.path[0], sentence($0.summary)] }
        return """
            routereg: the release engineer's tool for RouteRegistry (universal links per app version).

            Usage: routereg <command> [arguments] [flags]

            Commands:
            \(indent(TextTable.render(rows)))

            Global flags:
            \(indent(flagRows(CommandTable.globalFlags)))

            Environment: ROUTEREG_SERVER, ROUTEREG_TOKEN, NO_COLOR; config file ~/.config/routereg/config.json
            ({"server": "...", "token": "..."}).
            Exit codes: 0 ok, 1 the server refused, 2 usage error, 3 cannot reach the server.

            Example:
              routereg route add badoo lookalikes '/l/a/*' --since ios=5.12.0

            Run 'routereg <command> --help' for a command's arguments and flags.

            """
    }

    /// `routereg route --help`: the verbs of one noun.
    static func group(_ name: String, in table: CommandTable) -> String {
        let summary = table.groups.first { $0.name == name }?.summary ?? ""
        let commands = table.commands(in: name)
        let rows = commands.map { [$0.path[1] + ($0.positionals.isEmpty ? "" : " " + usageTail($0)), $0.summary] }
        let example = commands.first?.examples.first.map { "\nExample:\n  routereg \($0)\n" } ?? ""
        return """
            \(summary)

            Usage: routereg \(name) <command> [arguments] [flags]

            Commands:
            \(indent(TextTable.render(rows)))
            \(example)
            Run 'routereg \(name) <command> --help' for details.

            """
    }

    /// `routereg route add --help`.
    static func command(_ spec: CommandSpec) -> String {
        var text = "Usage: \(spec.displayName)"
        if !spec.positionals.isEmpty { text += " " + usageTail(spec) }
        text += " [flags]\n\n\(sentence(spec.summary))\n"
        if let details = spec.details { text += "\n\(details)\n" }
        if !spec.positionals.isEmpty {
            text += "\nArguments:\n" + indent(TextTable.render(spec.positionals.map { [$0.name, $0.summary] })) + "\n"
        }
        if !spec.flags.isEmpty {
            text += "\nFlags:\n" + indent(flagRows(spec.flags)) + "\n"
        }
        text += "\nGlobal flags:\n" + indent(flagRows(spec.globalFlags)) + "\n"
        text += "\nExample" + (spec.examples.count > 1 ? "s" : "") + ":\n"
        text += spec.examples.map { "  routereg \($0)\n" }.joined()
        return text
    }

    /// The summary with a capital letter, for places where it stands alone.
    private static func sentence(_ summary: String) -> String { summary.prefix(1).uppercased() + summary.dropFirst() }

    /// `APP ID PATTERN`.
    private static func usageTail(_ spec: CommandSpec) -> String {
        spec.positionals.map(\.usage).joined(separator: " ")
    }

    private static func flagRows(_ flags: [FlagSpec]) -> String {
        TextTable.render(flags.map { [$0.usage, $0.summary + ($0.repeatable ? " (repeatable)" : "")] })
    }

    private static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
            .joined(separator: "\n")
    }
}
