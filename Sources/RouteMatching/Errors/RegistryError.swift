/// An application error with a gRPC status: what every layer throws and what the wire carries.
///
/// `message` is for humans and must never hold SQL, bound values, tokens, file paths or C library text:
/// it goes to clients as is. Server-side detail belongs in the log, keyed by request id.
public struct RegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The gRPC status.
    public var code: StatusCode
    /// A sentence for the person who made the request.
    public var message: String
    /// For `INVALID_ARGUMENT`: which fields are wrong and why.
    public var fieldViolations: [FieldViolation]

    public init(_ code: StatusCode, _ message: String, fieldViolations: [FieldViolation] = []) {
        self.code = code
        self.message = message
        self.fieldViolations = fieldViolations
    }

    public var description: String { "\(code.name): \(message)" }

    /// A bad field: `field` is its lowerCamelCase path in the request (`route.platforms.ios.since`).
    public static func invalidArgument(field: String, _ description: String) -> RegistryError {
        RegistryError(
            .invalidArgument, "\(field): \(description)",
            fieldViolations: [FieldViolation(field: field, description: description)])
    }

    public static func notFound(_ resource: String) -> RegistryError {
        RegistryError(.notFound, "\(resource) not found")
    }

    public static func alreadyExists(_ resource: String) -> RegistryError {
        RegistryError(.alreadyExists, "\(resource) already exists")
    }

    public static func failedPrecondition(_ message: String) -> RegistryError {
        RegistryError(.failedPrecondition, message)
    }

    public static func aborted(_ message: String) -> RegistryError { RegistryError(.aborted, message) }

    public static func unavailable(_ message: String) -> RegistryError { RegistryError(.unavailable, message) }

    public static func `internal`(requestID: String? = nil) -> RegistryError {
        RegistryError(.internal, requestID.map { "internal error (request \($0))" } ?? "internal error")
    }
}

/// One bad field of a request (google.rpc.BadRequest.FieldViolation).
public struct FieldViolation: Sendable, Hashable, Codable {
    public var field: String
    public var description: String

    public init(field: String, description: String) {
        self.field = field
        self.description = description
    }
}
