import RouteCore

/// Who is making a request: the actor recorded in the audit log, the request id logs are keyed by, when the
/// caller stops waiting, and the caller's idempotency key for writes.
public struct Caller: Sendable, Hashable {
    /// The token id (or `bootstrap-admin` for the seeded admin token).
    public var actor: String
    public var requestID: String?
    /// When the caller stops waiting (`X-Request-Timeout-Ms`); nil: the service's default write timeout.
    public var deadline: ContinuousClock.Instant?
    /// The caller's `requestId` param (AIP-155): a retried write with the same key (same actor, same method)
    /// returns the first outcome instead of writing again.
    public var idempotencyKey: String?
    /// The fingerprint of the params sent with `idempotencyKey` (`WriteRequest.paramsFingerprint()`): a call
    /// whose key was first recorded with another fingerprint is refused. Nil compares nothing.
    public var paramsFingerprint: String?
    /// The apps the caller's token is limited to; nil: every app (an all-apps token, the bootstrap admin,
    /// or the server itself). Writes that only an admin for every app may make (sharing names, setting host
    /// patterns, creating a domain outside them) read it.
    public var apps: [String]?
    /// The caller's role; nil when unknown (the server itself, or a caller built without one), which counts
    /// as no more than the method's own role. `Manifests.Apply` reads it: an admin's apply also writes the
    /// app's fields and domains.
    public var role: Access?

    public init(
        actor: String, requestID: String? = nil, deadline: ContinuousClock.Instant? = nil,
        idempotencyKey: String? = nil, paramsFingerprint: String? = nil, apps: [String]? = nil, role: Access? = nil
    ) {
        self.actor = actor
        self.requestID = requestID
        self.deadline = deadline
        self.idempotencyKey = idempotencyKey
        self.paramsFingerprint = paramsFingerprint
        self.apps = apps
        self.role = role
    }

    /// Whether the caller holds the admin role.
    public var isAdmin: Bool { role == .admin }

    /// Whether the caller acts for every app.
    public var isForEveryApp: Bool { apps == nil }
}
