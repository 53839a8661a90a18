/// Parses one command's arguments against its flags and positionals.
///
/// Accepted forms: `--flag value`, `--flag=value`, boolean `--flag` (or `--flag=true|false`), repeated
/// flags where the spec allows, `-h`/`--help` anywhere before `--`, and `--` after which every token is
/// positional. Anything else is a `UsageError` naming the offending token, so the user sees exactly one
/// line saying what to fix.
enum ArgumentParser {
    /// Parses `tokens` (the arguments after the command's path).
    ///
    /// - Parameters:
    ///   - command: the command's display name, used in messages.
    ///   - lastValueWins: a flag given twice keeps its last value instead of being a usage error (the
    ///     convention `serve`, `migrate` and `aasa check` always had).
    static func parse(
        _ tokens: [String], flags: [FlagSpec], positionals: [PositionalSpec], command: String,
        lastValueWins: Bool = false
    ) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        let end = tokens.firstIndex(of: "--") ?? tokens.endIndex
        if tokens[..<end].contains(where: { $0 == "-h" || $0 == "--help" }) {
            // Help wins over every other mistake on the line: the user is asking how to write it.
            result.helpRequested = true
            return result
        }
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if token == "--" {
                result.positionals += tokens[index...]
                break
            }
            guard token.hasPrefix("-"), token != "-" else {
                result.positionals.append(token)
                continue
            }
            let (spec, inlineValue) = try flag(for: token, in: flags, command: command)
            let value: String
            switch spec.kind {
            case .bool:
                switch inlineValue {
                case nil, "true": value = "true"
                case "false": value = "false"
                case let other?:
                    throw UsageError(
                        "--\(spec.name) takes no value (got \"\(other)\"); use --\(spec.name) or --\(spec.name)=false",
                        problem: .unexpectedValue(spec, other))
                }
            case .value(let placeholder):
                if let inlineValue {
                    value = inlineValue
                } else if index < tokens.count, !looksLikeFlag(tokens[index]) {
                    value = tokens[index]
                    index += 1
                } else {
                    throw UsageError("--\(spec.name) needs a value (\(placeholder))", problem: .missingValue(spec))
                }
            }
            if result.flags[spec.name] != nil && !spec.repeatable {
                guard lastValueWins else {
                    throw UsageError("--\(spec.name) given more than once", problem: .repeated(spec))
                }
                result.flags[spec.name] = []
            }
            result.flags[spec.name, default: []].append(value)
        }
        try check(result.positionals, against: positionals, command: command)
        return result
    }

    /// The spec for `token` (`--name`, `--name=value`, `-x`) and its inline value.
    private static func flag(
        for token: String, in flags: [FlagSpec], command: String
    ) throws(UsageError) -> (FlagSpec, String?) {
        if token.hasPrefix("--") {
            let body = token.dropFirst(2)
            let name: Substring
            let value: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                value = String(body[body.index(after: equals)...])
            } else {
                name = body
                value = nil
            }
            guard let spec = flags.first(where: { $0.name == name }) else {
                throw UsageError(
                    "unknown flag --\(name) for '\(command)' (see '\(command) --help')", problem: .unknownFlag(token))
            }
            return (spec, value)
        }
        let letters = token.dropFirst()
        guard letters.count == 1, let spec = flags.first(where: { $0.short == letters.first }) else {
            throw UsageError(
                "unknown flag \(token) for '\(command)' (see '\(command) --help')", problem: .unknownFlag(token))
        }
        return (spec, nil)
    }

    /// A token that cannot be a flag's value because it is a flag itself. A lone `-` (stdin) and negative
    /// numbers are values.
    private static func looksLikeFlag(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token != "-" else { return false }
        return !(token.dropFirst().first?.isNumber ?? false)
    }

    /// Checks the number of positionals: names the first missing one, or the first extra one.
    private static func check(
        _ given: [String], against specs: [PositionalSpec], command: String
    ) throws(UsageError) {
        for (index, spec) in specs.enumerated() where index >= given.count && !spec.optional {
            throw UsageError(
                "missing argument \(spec.name) for '\(command)' (see '\(command) --help')",
                problem: .missingArgument(spec))
        }
        if specs.last?.variadic != true, given.count > specs.count {
            throw UsageError(
                "unexpected argument \"\(given[specs.count])\" for '\(command)'",
                problem: .unexpectedArgument(given[specs.count]))
        }
    }
}
