/// Reads `Authorization: Bearer <token>` into `request.context.bearerToken` (scheme case-insensitive, spaces
/// trimmed). The token is only read here: who holds it, and what it may do, is the route's to decide
/// (resolved at most once, and only when something needs it).
public struct BearerCredentials: HTTPMiddleware {
    public var hooks: HTTPMiddlewareHooks { [.respond] }

    public init() {}

    public func respond(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        if let token = Self.token(fromAuthorization: request.header("Authorization")) {
            request.context.bearerToken = token
        }
        return next(request)
    }

    /// The token of an `Authorization` value, or nil when it is not a non-empty bearer token.
    public static func token(fromAuthorization header: String?) -> String? {
        guard let header else { return nil }
        let value = header.trimmingSpaces
        guard value.count > 7, value.prefix(7).lowercased() == "bearer " else { return nil }
        let token = String(value.dropFirst(7)).trimmingSpaces
        return token.isEmpty ? nil : String(token)
    }
}

/// The token of `Authorization: Bearer …`, as `BearerCredentials` read it.
@usableFromInline
enum BearerTokenKey: RequestContextKey {
    @inlinable static var defaultValue: String? { nil }
}

extension RequestContext {
    /// The token of `Authorization: Bearer …` (`BearerCredentials`); nil without one.
    public internal(set) var bearerToken: String? {
        @inlinable get { self[BearerTokenKey.self] }
        set { self[BearerTokenKey.self] = newValue }
    }
}
