/// Why the embedded PostgreSQL cluster could not be created, started or stopped.
///
/// These errors are for the operator starting `routereg serve` (they may name paths and quote the output of
/// `initdb` or `pg_ctl`); they are never meant for API clients. The output of the tools never contains secrets:
/// the cluster uses trust authentication on a private socket and no password exists.
public struct EmbeddedPostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, for callers that react differently (e.g. binaries missing → suggest bootstrap).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case binariesNotFound, serverUserUnavailable, directoryUnusable, processFailed, startFailed
            case versionMismatch, databaseFailed
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// No PostgreSQL server binaries (initdb, pg_ctl) were found.
        public static let binariesNotFound = Code(.binariesNotFound)
        /// Running as root but the `postgres` system user (or `runuser`) is missing.
        public static let serverUserUnavailable = Code(.serverUserUnavailable)
        /// The data directory cannot be created, owned or reached.
        public static let directoryUnusable = Code(.directoryUnusable)
        /// A helper program could not run or reported failure.
        public static let processFailed = Code(.processFailed)
        /// The server did not come up; the message quotes the end of its log.
        public static let startFailed = Code(.startFailed)
        /// The cluster on disk was made by another major version than the installed server.
        public static let versionMismatch = Code(.versionMismatch)
        /// Connecting to the server or creating/dropping a database failed.
        public static let databaseFailed = Code(.databaseFailed)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// A sentence for the operator, possibly quoting tool output.
    public var message: String

    /// An error of kind `code` with a sentence for the operator.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "embedded PostgreSQL: \(message)" }
}
