import RouteCore
import RouteStore

// The one place a store failure becomes what a client sees. The store speaks SQL: a `StoreError` carries its
// code, the server's SQLSTATE and detail for the log, and nothing about the wire. Which status and which
// sentence each failure means is the service's business, decided here alone, so a new SQLSTATE or a reworded
// message is one edit and a test of this file, not a hunt through the store, the service and the server.

extension RegistryError {
    /// The wire form of any error the store throws: a `RegistryError` (a repository's domain answer, such as
    /// NOT_FOUND naming the resource) as is, a `StoreError` by its code and SQLSTATE, anything else
    /// `INTERNAL` (the detail belongs in the log).
    public init(storeFailure error: any Error) {
        switch error {
        case let error as RegistryError: self = error
        case let error as StoreError: self = Self.wire(error)
        default: self = .internal()
        }
    }

    /// The status a `StoreError` maps to, with a message fit for clients (never SQL, values or libpq text).
    private static func wire(_ error: StoreError) -> RegistryError {
        let code = error.code
        if code.isDomainAnswer { return answer(error) }
        if error.isConnectionFailure || code == .poolTimeout || code == .poolClosed {
            return .unavailable(
                code == .commitOutcomeUnknown
                    ? "the database connection was lost while committing; the change may or may not have been saved"
                    : "the database is unavailable; try again")
        }
        if code == .invalidValue { return RegistryError(.invalidArgument, "a value cannot be stored") }
        if code == .deadlineExceeded {
            return RegistryError(
                .deadlineExceeded, "the database did not answer before the deadline; nothing was changed")
        }
        guard code == .serverError, let sqlState = error.sqlState else { return .internal() }
        switch sqlState {
        case .uniqueViolation: return .alreadyExists("the resource")
        case .foreignKeyViolation, .restrictViolation, .objectNotInPrerequisiteState:
            return .failedPrecondition("the change conflicts with other resources that depend on it")
        case .checkViolation, .notNullViolation, .invalidTextRepresentation, .stringDataRightTruncation,
            .characterNotInRepertoire, .untranslatableCharacter, .numericValueOutOfRange:
            // 22021/22P05 (a U+0000 in jsonb): the params check refuses them by field first; this is the
            // backstop for any path it misses.
            return RegistryError(.invalidArgument, "a value is not valid")
        case .serializationFailure, .deadlockDetected:
            return .aborted("the change conflicted with a concurrent change; try again")
        case .queryCanceled, .lockNotAvailable:
            return RegistryError(.deadlineExceeded, "the database took too long; nothing was changed")
        case .readOnlySQLTransaction:
            return .failedPrecondition(
                "the database is a read-only replica (hot standby); send writes to a server connected to the primary")
        case .tooManyConnections, .cannotConnectNow, .adminShutdown, .crashShutdown:
            return .unavailable("the database is unavailable; try again")
        default: return .internal()
        }
    }
}

extension RegistryError {
    /// A store's domain answer in the API's words, naming the resource.
    private static func answer(_ error: StoreError) -> RegistryError {
        switch (error.code, error.resource) {
        case (.notFound, let resource?): return .notFound(resource)
        case (.alreadyExists, let resource?): return .alreadyExists(resource)
        case (.stale, let resource?): return .stale(resource)
        case (.badPageToken, _): return .invalidArgument(field: "pageToken", "is not a token this server issued")
        case (.incompleteOrder, _):
            return .invalidArgument(field: "routes", "must list every route of the app exactly once")
        case (.requestReused, _):
            // INVALID_ARGUMENT, as a malformed key is: the call is wrong whatever happens next, and resending it
            // can never succeed (a retry sends the same params). Not ALREADY_EXISTS, which a create-or-adopt
            // caller may read as "done", nor ABORTED or FAILED_PRECONDITION, which suggest trying again.
            return .invalidArgument(
                field: "requestId",
                "was already used with different params for this method; a retry must send the same params, "
                    + "and another call needs a new requestId")
        default: return .internal()
        }
    }
}

extension RegistryService {
    /// Runs `body`, turning store failures into the `RegistryError` clients see (`mappingStoreFailures`).
    func mapped<T>(_ body: () throws -> T) throws(RegistryError) -> T {
        try mappingStoreFailures(log: options.log, body)
    }
}

/// Runs `body`, turning store failures into the `RegistryError` clients see (`RegistryError(storeFailure:)`)
/// and logging to `log` what the client is not told: a store failure's detail (a lost connection's is not
/// news), anything unexpected in full.
func mappingStoreFailures<T>(log: (String) -> Void, _ body: () throws -> T) throws(RegistryError) -> T {
    do { return try body() } catch {
        switch error {
        case is RegistryError: break
        case let error as StoreError where error.code.isDomainAnswer: break
        case let error as StoreError where !error.isConnectionFailure: log("store: \(error.logDetail)")
        case is StoreError: break
        default: log("internal: \(error)")
        }
        throw RegistryError(storeFailure: error)
    }
}
