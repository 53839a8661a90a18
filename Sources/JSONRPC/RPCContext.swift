/// What a method handler knows about the call besides its params.
public struct RPCContext: Sendable {
    /// The request id, also in the `X-Request-Id` response header and the log line.
    public let requestID: String
    /// The method called (`Routes.Create`).
    public let method: String
    /// The authenticated caller; nil for public methods.
    public let principal: RPCPrincipal?
    /// When the caller stops waiting (`X-Request-Timeout-Ms`); nil when it did not say.
    public let deadline: ContinuousClock.Instant?
    /// The normalized `Host` header of the HTTP request.
    public let host: String
    /// The `User-Agent` header, if any.
    public let userAgent: String?
    /// The client's numeric IP address.
    public let remoteAddress: String
    /// A notification: the result is discarded.
    public let isNotification: Bool

    public init(
        requestID: String, method: String, principal: RPCPrincipal? = nil, deadline: ContinuousClock.Instant? = nil,
        host: String = "", userAgent: String? = nil, remoteAddress: String = "", isNotification: Bool = false
    ) {
        self.requestID = requestID
        self.method = method
        self.principal = principal
        self.deadline = deadline
        self.host = host
        self.userAgent = userAgent
        self.remoteAddress = remoteAddress
        self.isNotification = isNotification
    }

    /// Time left before the deadline (possibly negative), or nil without a deadline.
    public var remaining: Duration? { deadline.map { ContinuousClock.now.duration(to: $0) } }

    /// Whether the deadline has passed.
    public var isExpired: Bool { deadline.map { ContinuousClock.now >= $0 } ?? false }
}
