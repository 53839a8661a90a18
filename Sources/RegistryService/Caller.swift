/// Who is making a request: the actor recorded in the audit log, and the request id logs are keyed by.
public struct Caller: Sendable, Hashable {
    /// The token id (or `bootstrap-admin` for the seeded admin token).
    public var actor: String
    public var requestID: String?

    public init(actor: String, requestID: String? = nil) {
        self.actor = actor
        self.requestID = requestID
    }
}
