/// A flag a command accepts: `--name` (boolean) or `--name VALUE` / `--name=VALUE`.
struct FlagSpec: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// Present or absent; `--name=true|false` is also accepted.
        case bool
        /// Takes a value, shown as `placeholder` in help.
        case value(placeholder: String)
    }

    /// The name without dashes (`since`).
    var name: String
    /// A one-letter alias (`h` for `-h`), if any.
    var short: Character?
    var kind: Kind
    /// May be given more than once; values are kept in order.
    var repeatable: Bool
    /// One line for the help text.
    var summary: String

    /// A boolean flag.
    static func bool(_ name: String, _ summary: String, short: Character? = nil) -> FlagSpec {
        FlagSpec(name: name, short: short, kind: .bool, repeatable: false, summary: summary)
    }

    /// A flag with a value.
    static func value(_ name: String, _ placeholder: String, _ summary: String, repeatable: Bool = false) -> FlagSpec {
        FlagSpec(
            name: name, short: nil, kind: .value(placeholder: placeholder), repeatable: repeatable, summary: summary)
    }

    /// How the flag appears in help: `--since PLATFORM=VERSION`.
    var usage: String {
        let long = "--\(name)"
        let withShort = short.map { "-\($0), \(long)" } ?? long
        switch kind {
        case .bool: return withShort
        case .value(let placeholder): return "\(withShort) \(placeholder)"
        }
    }
}

/// A positional argument of a command.
struct PositionalSpec: Sendable, Hashable {
    /// Upper-case name shown in usage (`VERSION`).
    var name: String
    var summary: String
    /// May be left out.
    var optional: Bool = false
    /// Takes every remaining argument (at least one unless `optional`); only the last positional may be.
    var variadic: Bool = false

    /// How it appears in the usage line: `APP`, `[FROM]`, `URL...`.
    var usage: String {
        let base = variadic ? "\(name)..." : name
        return optional ? "[\(base)]" : base
    }
}

/// One command of the CLI, described as data: where it sits (`["route", "add"]`), what it takes, an example,
/// and what runs. Help text, parsing and usage errors all come from this description, so adding a command
/// means adding one value to the table.
struct CommandSpec: Sendable {
    /// What a command does once its arguments are parsed.
    enum Action: Sendable {
        /// Parsed by the shared parser, then run; thrown errors become exit codes.
        case run(@Sendable (Invocation) throws -> Void)
    }

    /// Nouns then verb: `["route", "add"]`, or one word for top-level commands (`["matrix"]`).
    var path: [String]
    /// One line for command lists.
    var summary: String
    /// More explanation for `--help`, if one line is not enough.
    var details: String?
    var positionals: [PositionalSpec]
    var flags: [FlagSpec]
    /// Copy-pasteable examples for `--help` (without the leading `routereg`).
    var examples: [String]
    /// The flags shared with other commands that this one accepts, listed under "Global flags" in its help:
    /// every client flag, or only `--help` for the commands that reach no registry server (`serve`, `migrate`).
    var globalFlags: [FlagSpec]
    /// The wording and framing a command kept from before it joined the table; nil for the table's own.
    var compatibility: Compatibility?
    var action: Action

    init(
        _ path: [String], summary: String, details: String? = nil, positionals: [PositionalSpec] = [],
        flags: [FlagSpec] = [], examples: [String], globalFlags: [FlagSpec] = CommandTable.globalFlags,
        compatibility: Compatibility? = nil, action: Action
    ) {
        self.path = path
        self.summary = summary
        self.details = details
        self.positionals = positionals
        self.flags = flags
        self.examples = examples
        self.globalFlags = globalFlags
        self.compatibility = compatibility
        self.action = action
    }

    /// `routereg route add`.
    var displayName: String { (["routereg"] + path).joined(separator: " ") }
}
