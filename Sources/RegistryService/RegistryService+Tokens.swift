import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    /// The actor recorded for the bootstrap admin token.
    public static let bootstrapActor = "bootstrap-admin"

    /// Who `secret` belongs to, or nil. Compared by SHA-256 so the secret itself is never held or stored;
    /// the bootstrap admin hash is compared in constant time. A token limited to some apps or in time is
    /// stored under the domain-separated hash (`TokenRepository.restrictedHashPrefix`), looked up second.
    /// An expired token is UNAUTHENTICATED, saying when it expired. A use is recorded in memory
    /// (`tokenUses`), written in batches.
    public func authenticate(secret: String, at now: Date = Date()) throws(RegistryError) -> Principal? {
        let hash = SHA256.hex(Array(secret.utf8))
        if let bootstrap = options.bootstrapAdminSHA256, Self.constantTimeEquals(hash, bootstrap) {
            return Principal(id: Self.bootstrapActor, role: .admin)
        }
        let tokens = snapshot.tokens
        guard
            let grant = tokens[hash]
                ?? tokens[SHA256.hex(Array((TokenRepository.restrictedHashPrefix + secret).utf8))]
        else { return nil }
        if let expiry = grant.expiresAt, expiry <= now {
            throw RegistryError(
                .unauthenticated,
                "token \(grant.id) expired at \(Timestamp.string(expiry)); ask an admin for a new one")
        }
        tokenUses.record(grant.id, at: now)
        return grant
    }

    /// A time as the API writes it (RFC 3339, UTC, milliseconds), for answers built outside the service.
    public static func timestamp(_ date: Date) -> String { Timestamp.string(date) }

    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    func tokenResource(_ stored: StoredToken) -> TokenResource {
        let lastUse = [stored.lastUsedAt, tokenUses.pending(stored.id)].compactMap { $0 }.max()
        return TokenResource(
            name: ResourceName.token(stored.id).description, id: stored.id, displayName: stored.displayName ?? "",
            role: stored.role,
            createTime: Timestamp.string(stored.createTime), revokeTime: stored.revokeTime.map(Timestamp.string),
            apps: stored.apps, expiresAt: stored.expiresAt.map(Timestamp.string),
            lastUsedAt: lastUse.map(Timestamp.string))
    }

    /// `Tokens.Create`. `creator` is the calling token: a token that expires may only create tokens that
    /// expire no later (it cannot outlive itself through another), and its apps were checked by `authorize`.
    public func createToken(
        _ token: API.TokensCreate.NewToken, by caller: Caller, creator: Principal? = nil, now: Date = Date()
    ) throws(RegistryError) -> API.TokensCreate.Output {
        guard token.role != .public else {
            throw RegistryError.invalidArgument(field: "token.role", "must be admin, releaser or reader")
        }
        guard !token.displayName.isEmpty, token.displayName.count <= 200 else {
            throw RegistryError.invalidArgument(field: "token.displayName", "must be 1 to 200 characters")
        }
        var apps: [String]?
        if let named = token.apps {
            guard !named.isEmpty else {
                throw RegistryError.invalidArgument(
                    field: "token.apps", "must name at least one app (absent: every app)")
            }
            var seen: Set<String> = []
            apps = named.filter { seen.insert($0).inserted }
        }
        var expiresAt: Date?
        if let text = token.expiresAt {
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw RegistryError.invalidArgument(
                    field: "token.expiresAt", "must be an RFC 3339 time (2026-12-31T23:59:59Z)")
            }
            guard date > now else {
                throw RegistryError.invalidArgument(field: "token.expiresAt", "must be in the future")
            }
            expiresAt = date
        }
        if let limit = creator?.expiresAt, expiresAt.map({ $0 > limit }) ?? true {
            throw RegistryError.invalidArgument(
                field: "token.expiresAt",
                "must be no later than \(Timestamp.string(limit)), when the token creating it expires")
        }
        let id = "tok_" + Self.randomHex(bytes: 8)
        let secret = Self.newSecret()
        let restricted = apps != nil || expiresAt != nil
        let hash = Data(SHA256.digest(Array(((restricted ? TokenRepository.restrictedHashPrefix : "") + secret).utf8)))
        let stored = try write(
            caller, method: API.TokensCreate.name, resource: .token(id), about: id
        ) {
            tx in
            for app in apps ?? [] where try self.store.apps.get(app, in: tx) == nil {
                throw RegistryError(
                    .failedPrecondition, "\(ResourceName.app(app)) does not exist",
                    fieldViolations: [FieldViolation(field: "token.apps", description: "\(app) does not exist")])
            }
            let stored = try self.store.tokens.create(
                id: id, role: token.role, secretSHA256: hash, displayName: token.displayName, apps: apps,
                expiresAt: expiresAt, in: tx)
            return Mutation(
                value: self.tokenResource(stored), before: nil, after: self.tokenResource(stored), apps: stored.apps)
        }.value
        return API.TokensCreate.Output(token: stored, secret: secret)
    }

    /// `Tokens.List`; with `scope` (a scoped admin's apps), only the tokens whose apps all lie in it.
    public func listTokens(_ page: PageRequest, within scope: [String]? = nil) throws(RegistryError)
        -> API.TokensList.Output
    {
        try mapped {
            let result = try store.read { tx in try store.tokens.list(page, within: scope, in: tx) }
            return API.TokensList.Output(result, tokenResource)
        }
    }

    public func revokeToken(_ id: String, by caller: Caller) throws(RegistryError) -> TokenResource {
        try write(caller, method: API.TokensRevoke.name, resource: .token(id), about: id) { tx in
            let stored = try self.store.tokens.revoke(id, in: tx)
            return Mutation(
                value: self.tokenResource(stored), before: nil, after: self.tokenResource(stored), apps: stored.apps)
        }.value
    }

    /// Writes the token uses recorded since the last flush; on failure they are kept for the next one.
    public func flushTokenUses(deadline: ContinuousClock.Instant) {
        let uses = tokenUses.take()
        guard !uses.isEmpty else { return }
        do { try store.recordTokenUses(uses, deadline: deadline) } catch {
            tokenUses.restore(uses)
            options.log(
                "tokens: recording the last use of \(uses.count) token(s) failed (\(error)); kept for the next flush")
        }
    }

    /// A new bearer secret: `rr_` and 32 random bytes in hex. Also what embedded mode seeds the admin with.
    public static func newSecret() -> String { "rr_" + randomHex(bytes: 32) }

    static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// `Audit.List`, newest first; with `resource`, only the entries of that resource and those below it;
    /// with `scope` (a scoped token's apps), only the entries of writes that touched one of them.
    public func listAudit(_ input: API.AuditList.Input, within scope: [String]? = nil) throws(RegistryError)
        -> API.AuditList.Output
    {
        try mapped {
            let result = try store.read { tx in
                try store.audit.list(
                    input.page, resource: input.resource.map { ResourceName.canonical(filter: $0) }, within: scope,
                    in: tx)
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
