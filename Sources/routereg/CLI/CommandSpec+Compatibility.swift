extension CommandSpec {
    /// What `serve`, `migrate` and `aasa check` kept from the parsers they had before they joined the table,
    /// so scripts and people used to them see no change: their wording of usage errors, how they frame a
    /// failure on stderr, and the last value of a repeated flag winning. Parsing itself is the table's.
    struct Compatibility: Sendable {
        /// The command's wording for a parser finding; nil keeps the parser's message.
        var reword: @Sendable (UsageError.Problem) -> String?
        /// Printed before every failure message (`error: `, `routereg aasa check: `).
        var prefix: String
        /// Printed after a usage error's message (the help text, or where to find it).
        var afterUsage: @Sendable () -> String

        /// The stderr text for a failure whose message is `message`.
        func failureText(_ error: any Error, message: String) -> String {
            guard let usage = error as? UsageError else { return prefix + message }
            return prefix + (usage.problem.flatMap(reword) ?? usage.message) + afterUsage()
        }

        /// `serve` and `migrate`: `error: MESSAGE` followed by the command's help, and the words they always
        /// used for an unknown token or a missing value.
        static func server(help: @escaping @Sendable () -> String) -> Compatibility {
            Compatibility(
                reword: { problem in
                    switch problem {
                    case .unknownFlag(let token), .unexpectedArgument(let token), .unexpectedValue(_, let token):
                        "unknown argument \(token)"
                    case .missingValue(let flag): "--\(flag.name) needs a value"
                    case .repeated, .missingArgument: nil
                    }
                },
                prefix: "error: ",
                afterUsage: {
                    let text = help()
                    return "\n" + (text.hasSuffix("\n") ? String(text.dropLast()) : text)
                })
        }
    }
}
