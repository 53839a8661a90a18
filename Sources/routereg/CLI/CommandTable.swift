/// Every command of the CLI as data, and how a command line finds its command.
///
/// Commands are grouped by noun (`route add`, `route list`); top-level commands have a one-word path
/// (`matrix`). Group summaries come from `groups`.
struct CommandTable: Sendable {
    /// Every command, in the order help lists them.
    var commands: [CommandSpec]
    /// Noun → one-line summary, in the order help lists them.
    var groups: [(name: String, summary: String)]

    /// `-h`/`--help`, which every command accepts.
    static let helpFlag = FlagSpec(
        name: "help", short: "h", kind: .bool, repeatable: false, summary: "show help for the command")

    /// Flags the client commands accept, wherever they appear on the line.
    static let globalFlags: [FlagSpec] = [
        .value("server", "URL", "registry server (default: $ROUTEREG_SERVER, the config file, http://127.0.0.1:8080)"),
        .bool("json", "print the server's JSON result unchanged, for scripts"),
        .bool("no-color", "never colour the output (also: NO_COLOR=1)"),
        helpFlag,
    ]

    /// Where a command line leads.
    enum Resolution {
        /// A command, with the arguments after its path (global flags written before it included).
        case command(CommandSpec, arguments: [String])
        /// A noun alone (`routereg route ...` without a verb), with the remaining arguments.
        case group(String, arguments: [String])
        /// No command word at all.
        case root(arguments: [String])
    }

    /// The commands under `noun`.
    func commands(in noun: String) -> [CommandSpec] {
        commands.filter { $0.path.count > 1 && $0.path[0] == noun }
    }

    /// The command with exactly this path.
    func command(_ path: [String]) -> CommandSpec? { commands.first { $0.path == path } }

    /// Finds the command `arguments` name. Global flags may come before the command words
    /// (`routereg --server URL app list`); they are moved after the path.
    func resolve(_ arguments: [String]) throws(UsageError) -> Resolution {
        var leading: [String] = []
        var words: [String] = []
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            if token.hasPrefix("-"), token != "-", token != "--" {
                leading.append(token)
                index += 1
                let name = token.drop(while: { $0 == "-" })
                let takesValue = Self.globalFlags.contains { $0.name == name && $0.kind != .bool }
                if takesValue, index < arguments.count {
                    leading.append(arguments[index])
                    index += 1
                }
                continue
            }
            if token == "--" { break }
            words.append(token)
            index += 1
            if let spec = command(words) {
                return .command(spec, arguments: leading + arguments[index...])
            }
            if words.count == 1, groups.contains(where: { $0.name == token }) { continue }
            let hint = words.count == 1 ? "routereg help" : "routereg \(words[0]) --help"
            throw UsageError("unknown command \"\(words.joined(separator: " "))\" (see '\(hint)')")
        }
        let rest = leading + arguments[index...]
        if let noun = words.first { return .group(noun, arguments: rest) }
        return .root(arguments: rest)
    }
}
