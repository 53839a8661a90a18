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

    public init(id: String, role: Access, displayName: String?, createTime: Date, revokeTime: Date?) {
        self.id = id
        self.role = role
        self.displayName = displayName
        self.createTime = createTime
        self.revokeTime = revokeTime
    }

    public var isRevoked: Bool { revokeTime != nil }
}

/// API tokens (`tokens/{id}`). The caller hashes the secret (SHA-256) and passes only the hash, so the
/// secret never reaches the database. Every method runs in the caller's transaction.
public struct TokenRepository: Sendable {
    public init() {}

    private static let columns: SQLQuery = "id, role, display_name, created_at, revoked_at"

    /// Stores a token; ALREADY_EXISTS if the id (or, astronomically unlikely, the hash) is taken.
    public func create(
        id: String, role: Access, secretSHA256: Data, displayName: String?, in tx: Transaction
    ) throws -> StoredToken {
        try mapUniqueViolation(.token(id)) {
            try decode(
                tx.query(
                    """
                    INSERT INTO tokens (id, role, secret_sha256, display_name)
                    VALUES (\(id), \(role.rawValue), \(secretSHA256)::bytea, \(displayName))
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

    /// Tokens in id order, revoked ones included.
    public func list(_ page: PageRequest = PageRequest(), in tx: Transaction) throws -> Page<StoredToken> {
        let after = try PageToken.read(page.pageToken, as: String.self) ?? ""
        let rows = try tx.query(
            "SELECT \(TokenRepository.columns) FROM tokens WHERE id > \(after) ORDER BY id LIMIT \(page.limit + 1)")
        return PageToken.page(try rows.map(decode), limit: page.limit) { $0.id }
    }

    /// Every token not revoked, by the SHA-256 (hex) of its secret: what a server authenticates requests
    /// with from memory. A role this build does not know is left out (it grants nothing).
    public func active(in tx: Transaction) throws -> [String: (id: String, role: Access)] {
        var active: [String: (id: String, role: Access)] = [:]
        for row in try tx.query(
            "SELECT id, role, encode(secret_sha256, 'hex') AS hash FROM tokens WHERE revoked_at IS NULL")
        {
            guard let role = Access(rawValue: try row.string("role")) else { continue }
            active[try row.string("hash")] = (try row.string("id"), role)
        }
        return active
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
            createTime: try row.date("created_at"), revokeTime: try row.optionalDate("revoked_at"))
    }
}
