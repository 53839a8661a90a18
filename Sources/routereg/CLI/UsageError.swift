/// A mistake in how a command was called (unknown flag, missing argument, bad value): the CLI prints
/// `error: <message>` on one line and exits 2, without contacting the server.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the parser found wrong, so a command that words usage errors its own way
    /// (`CommandSpec.Compatibility`) can reword it.
    enum Problem: Sendable, Hashable {
        /// A flag the command does not have, as written (`--frob=1`, `-x`).
        case unknownFlag(String)
        /// A value flag at the end of the line or followed by another flag.
        case missingValue(FlagSpec)
        /// A boolean flag given a value other than `true` or `false`.
        case unexpectedValue(FlagSpec, String)
        /// A flag that may be given once, given again.
        case repeated(FlagSpec)
        /// A required positional left out.
        case missingArgument(PositionalSpec)
        /// A positional beyond the last one the command takes.
        case unexpectedArgument(String)
    }

    /// What is wrong, naming the flag or argument.
    var message: String
    /// The parser's finding; nil for mistakes found after parsing (a bad value, an unknown command).
    var problem: Problem?

    init(_ message: String, problem: Problem? = nil) {
        self.message = message
        self.problem = problem
    }

    var description: String { message }

    /// Two usage errors are the same when they say the same thing.
    static func == (lhs: UsageError, rhs: UsageError) -> Bool { lhs.message == rhs.message }
}
