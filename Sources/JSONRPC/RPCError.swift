import StatusCodes

/// An application error as the engine sends it: a gRPC-style status (`error.code` is the number,
/// `error.data.status` the name), a sentence, and the fields at fault.
///
/// The engine knows no application's errors. An application makes its own error type speak this one by
/// conforming to `RPCErrorConvertible`; anything else a handler throws is answered INTERNAL, its text kept
/// for the log.
public struct RPCError: Error, Sendable, Hashable {
    /// The gRPC status number (3 `INVALID_ARGUMENT`, 5 `NOT_FOUND`, …).
    public var code: Int
    /// The status name sent as `error.data.status` (`NOT_FOUND`).
    public var status: String
    /// For the person who made the request: never SQL, tokens, paths or C library text.
    public var message: String
    /// Which fields are wrong and why.
    public var fieldViolations: [RPCFieldViolation]

    public init(code: Int, status: String, message: String, fieldViolations: [RPCFieldViolation] = []) {
        self.code = code
        self.status = status
        self.message = message
        self.fieldViolations = fieldViolations
    }

    /// An error of `status` (its number and name from the one table, `StatusCode`).
    public init(_ status: StatusCode, message: String, fieldViolations: [RPCFieldViolation] = []) {
        self.init(code: status.rawValue, status: status.name, message: message, fieldViolations: fieldViolations)
    }

    /// Whether this is an unexpected failure: its text goes to the log, the client gets a generic one.
    public var isInternal: Bool { code == StatusCode.internal.rawValue }

    /// Whether the caller presented no valid credentials.
    var isUnauthenticated: Bool { code == StatusCode.unauthenticated.rawValue }

    // The statuses the engine raises itself.
    /// `field` is wrong: INVALID_ARGUMENT naming it.
    public static func invalidArgument(field: String, _ description: String) -> RPCError {
        RPCError(
            .invalidArgument, message: "\(field): \(description)",
            fieldViolations: [RPCFieldViolation(field: field, description: description)])
    }
    static func deadlineExceeded() -> RPCError { RPCError(.deadlineExceeded, message: "deadline exceeded") }
    static func permissionDenied(_ message: String) -> RPCError { RPCError(.permissionDenied, message: message) }
    static func resourceExhausted(_ message: String) -> RPCError { RPCError(.resourceExhausted, message: message) }
    static func failedPrecondition(_ message: String) -> RPCError {
        RPCError(.failedPrecondition, message: message)
    }
    static func `internal`(requestID: String) -> RPCError {
        RPCError(.internal, message: "internal error (request \(requestID))")
    }
    static func unavailable(_ message: String) -> RPCError { RPCError(.unavailable, message: message) }
    static func unauthenticated(_ message: String) -> RPCError { RPCError(.unauthenticated, message: message) }
}

/// One bad field of a request (google.rpc.BadRequest.FieldViolation): `field` is its lowerCamelCase path
/// (`route.platforms.ios.since`, `routes[2].id`).
public struct RPCFieldViolation: Sendable, Hashable, Encodable {
    public var field: String
    public var description: String

    public init(field: String, description: String) {
        self.field = field
        self.description = description
    }
}

/// An application's error that the engine answers as is (with its status, message and fields).
public protocol RPCErrorConvertible: Error {
    /// The error as the wire carries it.
    var rpcError: RPCError { get }
}

extension RPCError: RPCErrorConvertible {
    public var rpcError: RPCError { self }
}
