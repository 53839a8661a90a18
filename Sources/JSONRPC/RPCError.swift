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

    /// Whether this is an unexpected failure: its text goes to the log, the client gets a generic one.
    public var isInternal: Bool { code == RPCError.internalCode }

    static let internalCode = 13

    // The statuses the engine raises itself.
    static func invalidArgument(field: String, _ description: String) -> RPCError {
        RPCError(
            code: 3, status: "INVALID_ARGUMENT", message: "\(field): \(description)",
            fieldViolations: [RPCFieldViolation(field: field, description: description)])
    }
    static func deadlineExceeded() -> RPCError {
        RPCError(code: 4, status: "DEADLINE_EXCEEDED", message: "deadline exceeded")
    }
    static func permissionDenied(_ message: String) -> RPCError {
        RPCError(code: 7, status: "PERMISSION_DENIED", message: message)
    }
    static func resourceExhausted(_ message: String) -> RPCError {
        RPCError(code: 8, status: "RESOURCE_EXHAUSTED", message: message)
    }
    static func failedPrecondition(_ message: String) -> RPCError {
        RPCError(code: 9, status: "FAILED_PRECONDITION", message: message)
    }
    static func `internal`(requestID: String) -> RPCError {
        RPCError(code: internalCode, status: "INTERNAL", message: "internal error (request \(requestID))")
    }
    static func unavailable(_ message: String) -> RPCError {
        RPCError(code: 14, status: "UNAVAILABLE", message: message)
    }
    static func unauthenticated(_ message: String) -> RPCError {
        RPCError(code: 16, status: "UNAUTHENTICATED", message: message)
    }
    static let invalidArgumentStatus = "INVALID_ARGUMENT"
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
