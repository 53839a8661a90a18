/// A mistake in how a command was called (unknown flag, missing argument, bad value): the CLI prints
/// `error: <message>` on one line and exits 2, without contacting the server.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the flag or argument.
    var message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
