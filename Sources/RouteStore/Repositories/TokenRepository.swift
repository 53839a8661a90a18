import Foundation
import RouteCore

/// An API token as stored: never the secret, only its SHA-256.
public struct StoredToken: Sendable, Hashable {
    public var id: String
    /// `reader`, `releaser` or `admin`.
    public var role: Access
    public var displayName: String?
    public var createTime: Date
    /// When it was revoked; a revoked token authenticates nobody.
    public var revokeTime: Date?
    /// The apps it may act on; nil: every app.
    public var apps: [String]?
    /// When it stops authenticating; nil: never.
    public var expiresAt: Date?
    /// When it last authenticated a call, as last flushed (uses are recorded in batches).
    public var lastUsedAt: Date?

    public init(
        id: String, role: Access, displayName: String?, createTime: Date, revokeTime: Date?, apps: [String]? = nil,
        expiresAt: Date? = nil, lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.role = role
        self.displayName = displayName
        self.createTime = createTime
        self.revokeTime = revokeTime
        self.apps = apps
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
    }

    public var isRevoked: Bool { revokeTime != nil }
}

/// A token that authenticates (not revoked), as a server holds it in memory.
public struct ActiveToken: Sendable, Hashable {
    public var id: String
    public var role: Access
    public var apps: [String]?
    public var expiresAt: Date?

    public init(id: String, role: Access, apps: [String]? = nil, expiresAt: Date? = nil) {
        self.id = id
        self.role = role
        self.apps = apps
        self.expiresAt = expiresAt
    }
}

/// API tokens (`tokens/{id}`). The caller hashes the secret (SHA-256) and passes only the hash, so the
/// secret never reaches the database. Every method runs in the caller's transaction.
public struct TokenRepository: Sendable {
    public init() {}

    /// What a restricted token's secret is prefixed with before hashing. Servers older than migration 0006
    /// ignore scopes and expiry; they hash the plain secret, so they never find a restricted token and refuse
    /// it, rather than granting its role on every app with no end (a rolling upgrade runs both releases).
    public static let restrictedHashPrefix = "routereg-scoped-token:"

    private static let columns: SQLQuery =
        "id, role, display_name, created_at, revoked_at, apps, expires_at, last_used_at"

    /// Stores a token; ALREADY_EXISTS if the id (or, astronomically unlikely, the hash) is taken.
    public func create(
        id: String, role: Access, secretSHA256: Data, displayName: String?, apps: [String]? = nil,
        expiresAt: Date? = nil, in tx: Transaction
    ) throws -> StoredToken {
        let expires = expiresAt.map { $0.formatted(.iso8601) }
        return try mapUniqueViolation(.token(id)) {
            try decode(
                tx.query(
                    """
                    INSERT INTO tokens (id, role, secret_sha256, display_name, apps, expires_at)
                    VALUES (\(id), \(role.rawValue), \(secretSHA256)::bytea, \(displayName), \(apps)::text[],
                        \(expires)::timestamptz)
                    RETURNING \(TokenRepository.columns)
                    """)[0])
        }
    }

    /// The token whose secret hashes to `secretSHA256` (revoked or not), or nil: the hot path of every
    /// authenticated request, hence a prepared statement.
    public func find(secretSHA256: Data, in tx: Transaction) throws -> StoredToken? {
        try tx.query(
            prepared: "SELECT \(TokenRepository.columns) FROM tokens WHERE secret_sha256 = \(secretSHA256)::bytea"
        ).first.map(decode)
    }

    /// The token with `id`, or nil.
    public func get(_ id: String, in tx: Transaction) throws -> StoredToken? {
        try tx.query("SELECT \(TokenRepository.columns) FROM tokens WHERE id = \(id)").first.map(decode)
    }

    /// Tokens in id order, revoked ones included. With `scope`, only the tokens whose apps all lie in it (an
    /// all-apps token lies in no app's scope).
    public func list(
        _ page: PageRequest = PageRequest(), within scope: [String]? = nil, in tx: Transaction
    ) throws -> Page<StoredToken> {
        let after = try PageToken.read(page.pageToken, as: String.self) ?? ""
        let rows = try tx.query(
            """
            SELECT \(TokenRepository.columns) FROM tokens
            WHERE id > \(after) AND (\(scope)::text[] IS NULL OR apps <@ \(scope)::text[])
            ORDER BY id LIMIT \(page.limit + 1)
            """)
        return PageToken.page(try rows.map(decode), limit: page.limit) { $0.id }
    }

    /// Every token not revoked (expired ones included, so a server can say when they expired), by the
    /// SHA-256 (hex) of its secret: what a server authenticates requests with from memory. A role this build
    /// does not know is left out (it grants nothing).
    public func active(in tx: Transaction) throws -> [String: ActiveToken] {
        var active: [String: ActiveToken] = [:]
        for row in try tx.query(
            """
            SELECT id, role, apps, expires_at, encode(secret_sha256, 'hex') AS hash FROM tokens
            WHERE revoked_at IS NULL
            """)
        {
            guard let role = Access(rawValue: try row.string("role")) else { continue }
            active[try row.string("hash")] = ActiveToken(
                id: try row.string("id"), role: role, apps: try row.optionalStrings("apps"),
                expiresAt: try row.optionalDate("expires_at"))
        }
        return active
    }

    /// Records when tokens were last used (a batch of a few seconds of uses); a time never moves back.
    public func recordUses(_ uses: [String: Date], in tx: Transaction) throws {
        guard !uses.isEmpty else { return }
        let ids = Array(uses.keys)
        let times = ids.map { uses[$0]!.formatted(.iso8601) }
        try tx.query(
            """
            UPDATE tokens t SET last_used_at = greatest(t.last_used_at, u.at)
            FROM unnest(\(ids)::text[], \(times)::timestamptz[]) AS u(id, at)
            WHERE t.id = u.id
            """)
    }

    /// Revokes the token (revoking twice keeps the first time). NOT_FOUND if there is no such token.
    @discardableResult
    public func revoke(_ id: String, in tx: Transaction) throws -> StoredToken {
        let rows = try tx.query(
            """
            UPDATE tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = \(id)
            RETURNING \(TokenRepository.columns)
            """)
        guard let row = rows.first else { throw StoreError.notFound(.token(id)) }
        return try decode(row)
    }

    private func decode(_ row: SQLRow) throws -> StoredToken {
        guard let role = Access(rawValue: try row.string("role")) else {
            throw StoreError(.decodingFailed, detail: "tokens.role")
        }
        return StoredToken(
            id: try row.string("id"), role: role, displayName: try row.optionalString("display_name"),
            createTime: try row.date("created_at"), revokeTime: try row.optionalDate("revoked_at"),
            apps: try row.optionalStrings("apps"), expiresAt: try row.optionalDate("expires_at"),
            lastUsedAt: try row.optionalDate("last_used_at"))
    }
}
