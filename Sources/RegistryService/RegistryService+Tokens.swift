import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    /// The actor recorded for the bootstrap admin token.
    public static let bootstrapActor = "bootstrap-admin"

    /// Who `secret` belongs to, or nil. Compared by SHA-256 so the secret itself is never held or stored;
    /// the bootstrap admin hash is compared in constant time.
    public func authenticate(secret: String) -> Principal? {
        let hash = SHA256.hex(Array(secret.utf8))
        if let bootstrap = options.bootstrapAdminSHA256, Self.constantTimeEquals(hash, bootstrap) {
            return Principal(id: Self.bootstrapActor, role: .admin)
        }
        guard let grant = snapshot.tokens[hash] else { return nil }
        return grant
    }

    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    static func resource(_ stored: StoredToken) -> TokenResource {
        TokenResource(
            name: ResourceName.token(stored.id).description, id: stored.id, displayName: stored.displayName ?? "",
            role: stored.role,
            createTime: Timestamp.string(stored.createTime), revokeTime: stored.revokeTime.map(Timestamp.string))
    }

    public func createToken(_ token: API.TokensCreate.NewToken, by caller: Caller) throws(RegistryError)
        -> API.TokensCreate.Output
    {
        guard token.role != .public else {
            throw RegistryError.invalidArgument(field: "token.role", "must be admin, releaser or reader")
        }
        guard !token.displayName.isEmpty, token.displayName.count <= 200 else {
            throw RegistryError.invalidArgument(field: "token.displayName", "must be 1 to 200 characters")
        }
        let id = "tok_" + Self.randomHex(bytes: 8)
        let secret = Self.newSecret()
        let hash = Data(SHA256.digest(Array(secret.utf8)))
        let stored = try write(
            caller, method: API.TokensCreate.name, resource: .token(id), about: id
        ) {
            tx in
            let stored = try self.store.tokens.create(
                id: id, role: token.role, secretSHA256: hash, displayName: token.displayName, in: tx)
            return Mutation(value: Self.resource(stored), before: nil, after: Self.resource(stored))
        }.value
        return API.TokensCreate.Output(token: stored, secret: secret)
    }

    public func listTokens(_ page: PageRequest) throws(RegistryError) -> API.TokensList.Output {
        try mapped {
            let result = try store.read { tx in try store.tokens.list(page, in: tx) }
            return API.TokensList.Output(result, Self.resource)
        }
    }

    public func revokeToken(_ id: String, by caller: Caller) throws(RegistryError) -> TokenResource {
        try write(caller, method: API.TokensRevoke.name, resource: .token(id), about: id) { tx in
            let stored = try self.store.tokens.revoke(id, in: tx)
            return Mutation(value: Self.resource(stored), before: nil, after: Self.resource(stored))
        }.value
    }

    /// A new bearer secret: `rr_` and 32 random bytes in hex. Also what embedded mode seeds the admin with.
    public static func newSecret() -> String { "rr_" + randomHex(bytes: 32) }

    static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// `Audit.List`, newest first; with `resource`, only the entries of that resource and those below it.
    public func listAudit(_ input: API.AuditList.Input) throws(RegistryError) -> API.AuditList.Output {
        try mapped {
            let result = try store.read { tx in
                try store.audit.list(
                    input.page, resource: input.resource.map { ResourceName.canonical(filter: $0) }, in: tx)
            }
            return try API.AuditList.Output(result, Self.entry)
        }
    }

    static func entry(_ stored: StoredAuditEntry) throws -> AuditEntry {
        AuditEntry(
            id: String(stored.id), at: Timestamp.string(stored.at), actor: stored.actor, method: stored.method,
            resource: stored.resource, before: try stored.before.map { try JSONValue(json: $0) },
            after: try stored.after.map { try JSONValue(json: $0) }, requestID: stored.requestID)
    }
}
