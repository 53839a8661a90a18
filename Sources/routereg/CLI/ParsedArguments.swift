/// The result of parsing one command's arguments: flag values by name (in order) and positionals.
struct ParsedArguments: Sendable, Equatable {
    /// Every value of every flag given, by flag name; boolean flags hold `"true"` or `"false"`.
    var flags: [String: [String]] = [:]
    /// Positional arguments, in order (including everything after `--`).
    var positionals: [String] = []
    /// `-h` or `--help` was given.
    var helpRequested = false

    /// The last value of a value flag, if given.
    func value(_ name: String) -> String? { flags[name]?.last }

    /// Every value of a repeatable flag, in order.
    func values(_ name: String) -> [String] { flags[name] ?? [] }

    /// True when a boolean flag was given (and not as `--name=false`).
    func bool(_ name: String) -> Bool { flags[name]?.last == "true" }

    /// True when the flag was given at all.
    func has(_ name: String) -> Bool { flags[name] != nil }

    /// The positional at `index`, or nil when an optional one was left out.
    func positional(_ index: Int) -> String? { positionals.indices.contains(index) ? positionals[index] : nil }
}
