/// Who holds a bearer token: its id and what it may do. The transport resolves a call's token to one, and
/// the registry's snapshot keeps one per active token, so both speak this one type.
public struct Principal: Sendable, Hashable, Codable {
    /// The token's id (the actor recorded in the audit log), never the token itself.
    public var id: String
    /// What the token may do: `reader`, `releaser` or `admin`.
    public var role: Access

    public init(id: String, role: Access) {
        self.id = id
        self.role = role
    }
}
