import RouteCore

/// A failure in the store: what went wrong (`code`), the server's SQLSTATE if any, and server-side detail
/// for the log.
///
/// `description` is deliberately generic (postgres-nio's `PSQLError` does the same): it never contains SQL,
/// bound values or libpq text, so the error can be shown or logged anywhere. `logDetail` has the rest and
/// belongs in the server log only, keyed by request id.
///
/// The store speaks SQL, not the wire: which status and message a failure means to a client is decided in
/// one place in RegistryService (`RegistryError(storeFailure:)`), not here. Its domain answers (a row that
/// is not there, a key taken, a stale etag) name the resource and say nothing else.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case connectionFailed, poolTimeout, poolClosed, serverError, decodingFailed, invalidValue
            case commitOutcomeUnknown, migrationChanged, migrationFailed, deadlineExceeded
            case notFound, alreadyExists, stale, badPageToken, incompleteOrder, requestReused
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The server could not be reached or the connection broke.
        public static let connectionFailed = Code(.connectionFailed)
        /// No pooled connection became free in time.
        public static let poolTimeout = Code(.poolTimeout)
        /// The pool was closed.
        public static let poolClosed = Code(.poolClosed)
        /// The server refused a statement; `sqlState` says why.
        public static let serverError = Code(.serverError)
        /// A result did not have the shape the code expected.
        public static let decodingFailed = Code(.decodingFailed)
        /// A value cannot be sent (e.g. text containing NUL, which PostgreSQL cannot store).
        public static let invalidValue = Code(.invalidValue)
        /// The connection broke after COMMIT was sent: the write may or may not have landed.
        public static let commitOutcomeUnknown = Code(.commitOutcomeUnknown)
        /// An applied migration's file changed since it was applied.
        public static let migrationChanged = Code(.migrationChanged)
        /// A migration could not be read or applied.
        public static let migrationFailed = Code(.migrationFailed)
        /// The server did not answer before the caller's deadline; the connection was abandoned, so nothing
        /// uncommitted on it can commit later.
        public static let deadlineExceeded = Code(.deadlineExceeded)
        /// The `resource` is not there.
        public static let notFound = Code(.notFound)
        /// The `resource`'s key is taken (a unique violation).
        public static let alreadyExists = Code(.alreadyExists)
        /// The `resource` changed since the etag the caller sent.
        public static let stale = Code(.stale)
        /// A page token the store did not issue.
        public static let badPageToken = Code(.badPageToken)
        /// A new order of the `resource` collection that does not name each member exactly once.
        public static let incompleteOrder = Code(.incompleteOrder)
        /// An idempotency key already recorded, for the same actor and method, with other params: a key reused
        /// for another call, which must not be answered with the first call's outcome.
        public static let requestReused = Code(.requestReused)

        /// A domain answer about a resource, not a failure of the database.
        public var isDomainAnswer: Bool {
            switch base {
            case .notFound, .alreadyExists, .stale, .badPageToken, .incompleteOrder, .requestReused: true
            default: false
            }
        }

        public var description: String { base.rawValue }
    }

    public var code: Code
    /// The server's SQLSTATE for `.serverError` (and for connection failures the server reported).
    public var sqlState: SQLState?
    /// Server-side detail (libpq message, statement text): for the log only, never for clients.
    public var logDetail: String
    /// The resource a domain answer is about.
    public var resource: ResourceName?

    public init(_ code: Code, sqlState: SQLState? = nil, detail: String = "", resource: ResourceName? = nil) {
        self.code = code
        self.sqlState = sqlState
        self.logDetail = detail
        self.resource = resource
    }

    /// `resource` is not there.
    public static func notFound(_ resource: ResourceName) -> StoreError { StoreError(.notFound, resource: resource) }

    /// `resource` changed since the caller's etag.
    public static func stale(_ resource: ResourceName) -> StoreError { StoreError(.stale, resource: resource) }

    public var description: String {
        if let resource { return "\(code) \(resource)" }
        if let sqlState { return "database error \(code) (SQLSTATE \(sqlState.rawValue))" }
        return "database error \(code)"
    }

    /// True when rerunning the whole transaction may succeed (serialization failure or deadlock).
    public var isRetryable: Bool {
        code == .serverError && (sqlState == .serializationFailure || sqlState == .deadlockDetected)
    }

    /// True when the connection this happened on is no longer usable.
    public var isConnectionFailure: Bool {
        code == .connectionFailed || code == .commitOutcomeUnknown || (sqlState?.isConnectionClass ?? false)
    }
}

/// A PostgreSQL SQLSTATE (five characters), with named constants for the ones the code reacts to.
public struct SQLState: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let uniqueViolation = SQLState(rawValue: "23505")
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    public static let checkViolation = SQLState(rawValue: "23514")
    public static let notNullViolation = SQLState(rawValue: "23502")
    public static let restrictViolation = SQLState(rawValue: "23001")
    public static let serializationFailure = SQLState(rawValue: "40001")
    public static let deadlockDetected = SQLState(rawValue: "40P01")
    public static let invalidTextRepresentation = SQLState(rawValue: "22P02")
    public static let stringDataRightTruncation = SQLState(rawValue: "22001")
    public static let characterNotInRepertoire = SQLState(rawValue: "22021")
    /// A `\u0000` (or another escape the database encoding lacks) in a jsonb or text value.
    public static let untranslatableCharacter = SQLState(rawValue: "22P05")
    public static let numericValueOutOfRange = SQLState(rawValue: "22003")
    public static let objectNotInPrerequisiteState = SQLState(rawValue: "55000")
    public static let inFailedSQLTransaction = SQLState(rawValue: "25P02")
    public static let queryCanceled = SQLState(rawValue: "57014")
    /// `lock_timeout` expired.
    public static let lockNotAvailable = SQLState(rawValue: "55P03")
    /// A write reached a hot standby (or a read-only transaction).
    public static let readOnlySQLTransaction = SQLState(rawValue: "25006")
    public static let adminShutdown = SQLState(rawValue: "57P01")
    public static let crashShutdown = SQLState(rawValue: "57P02")
    public static let cannotConnectNow = SQLState(rawValue: "57P03")
    public static let tooManyConnections = SQLState(rawValue: "53300")
    public static let undefinedTable = SQLState(rawValue: "42P01")

    /// Class 08 (connection exception) and the shutdown states: the session is gone.
    public var isConnectionClass: Bool {
        rawValue.hasPrefix("08") || self == .adminShutdown || self == .crashShutdown || self == .cannotConnectNow
    }

    public var description: String { rawValue }
}
