/// Who may call a method, as the engine compares it: levels are ordered, and a caller whose level is at
/// least the method's may call it. Level 0 is public: no credentials needed. The application names its
/// levels (the registry's roles `reader` < `releaser` < `admin`).
public struct RPCAccess: Sendable, Hashable, Comparable {
    /// The rank: higher may do more.
    public let level: Int
    /// The name used in refusals (`Routes.Create needs the releaser role`).
    public let name: String

    public init(level: Int, name: String) {
        self.level = level
        self.name = name
    }

    /// Anyone, without credentials.
    public static let `public` = RPCAccess(level: 0, name: "public")

    public static func < (lhs: RPCAccess, rhs: RPCAccess) -> Bool { lhs.level < rhs.level }
}

/// The caller a credential resolved to: its id, its access, and the application's own record of it (the
/// registry's `Principal`), for handlers that need more than the id.
public struct RPCPrincipal: Sendable {
    /// The credential's id (the actor an audit records), never the secret.
    public let id: String
    /// What it may call.
    public let access: RPCAccess
    /// The application's principal, as its authenticator resolved it.
    public let value: any Sendable

    public init(id: String, access: RPCAccess, value: any Sendable) {
        self.id = id
        self.access = access
        self.value = value
    }
}

/// Resolves a bearer token to a caller; called at most once per HTTP request, and only when a method that
/// is not public is called.
public protocol Authenticator: Sendable {
    /// The caller holding `token`, or nil when the token is unknown or revoked. A thrown
    /// `RPCErrorConvertible` (UNAVAILABLE, say) fails the calls that needed it.
    func principal(forToken token: String) throws -> RPCPrincipal?
}

/// Where the engine reports what it did: each call's outcome (for metrics) and each unexpected failure
/// (for the log, keyed by request id). The server adapts its metrics and request log to it.
public protocol JSONRPCObserver: Sendable {
    /// A call finished: `method` is its name (`-` for a call that named no known method), `status` `OK`, a
    /// gRPC status name or a JSON-RPC error name (`PARSE_ERROR`).
    func callFinished(method: String, status: String)
    /// A call failed unexpectedly; the client was told only the request id.
    func internalFailure(requestID: String, method: String, error: any Error)
    /// A client address passed the failed sign-in limit (`SignInLimiter`): once per burst.
    func signInsLimited(_ lockout: SignInLimiter.Lockout)
}

extension JSONRPCObserver {
    public func signInsLimited(_ lockout: SignInLimiter.Lockout) {}
}
