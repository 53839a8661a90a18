/// A failure of the test harness itself (not of PostgreSQL: those are `EmbeddedPostgresError`).
public struct TestPostgresError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    init(_ message: String) { self.message = message }

    public var description: String { "test PostgreSQL: \(message)" }
}
