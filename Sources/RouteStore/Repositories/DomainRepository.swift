import RouteCore

/// Domains (`domains/{host}`): the hosts apps answer for, their apps in AASA order, aliases and defaults.
/// Every method runs in the caller's transaction.
public struct DomainRepository: Sendable {
    public init() {}

    private static let columns: SQLQuery = """
        d.host, d.alias_of, d.default_case_sensitive, d.default_percent_encoded, d.substitution_variables,
        d.legacy_paths, d.links, d.long_link_previews, d.etag, d.created_at, d.updated_at,
        ARRAY(SELECT da.app FROM domain_apps da WHERE da.host = d.host ORDER BY da.position) AS apps
        """

    /// Stores a new domain with its apps; ALREADY_EXISTS if the host is taken, FAILED_PRECONDITION if an
    /// app or the alias target does not exist.
    public func create(_ domain: Domain, in tx: Transaction) throws -> Stored<Domain> {
        try mapUniqueViolation(.domain(domain.host)) {
            try tx.query(
                """
                INSERT INTO domains (host, alias_of, default_case_sensitive, default_percent_encoded,
                    substitution_variables, legacy_paths, links, long_link_previews)
                VALUES (\(domain.host), \(domain.aliasOf), \(domain.defaults?.caseSensitive),
                    \(domain.defaults?.percentEncoded), \(try variables(domain))::jsonb, \(domain.legacyPaths),
                    \(domain.links), \(domain.longLinkPreviews))
                """)
        }
        try insertApps(domain, in: tx)
        return try require(domain.host, in: tx)
    }

    /// The domain, or nil.
    public func get(_ host: String, in tx: Transaction) throws -> Stored<Domain>? {
        try tx.query(prepared: "SELECT \(DomainRepository.columns) FROM domains d WHERE d.host = \(host)")
            .first.map(decode)
    }

    /// Domains in host order.
    /// With `scope`, only the domains one of its apps answers for.
    public func list(
        _ page: PageRequest = PageRequest(), within scope: [String]? = nil, in tx: Transaction
    ) throws -> Page<Stored<Domain>> {
        let after = try PageToken.read(page.pageToken, as: String.self) ?? ""
        let rows = try tx.query(
            """
            SELECT \(DomainRepository.columns) FROM domains d WHERE d.host > \(after)
                AND (\(scope)::text[] IS NULL
                    OR EXISTS (SELECT 1 FROM domain_apps s WHERE s.host = d.host AND s.app = ANY(\(scope)::text[])))
            ORDER BY d.host LIMIT \(page.limit + 1)
            """)
        return PageToken.page(try rows.map(decode), limit: page.limit) { $0.value.host }
    }

    /// Every domain, in host order.
    public func all(in tx: Transaction) throws -> [Stored<Domain>] {
        try tx.query("SELECT \(DomainRepository.columns) FROM domains d ORDER BY d.host").map(decode)
    }

    /// Replaces the domain's fields and apps. A stale `expectedEtag` fails ABORTED.
    public func update(_ domain: Domain, expectedEtag: String?, in tx: Transaction) throws -> Stored<Domain> {
        let rows = try tx.query(
            """
            UPDATE domains SET alias_of = \(domain.aliasOf), default_case_sensitive = \(domain.defaults?.caseSensitive),
                default_percent_encoded = \(domain.defaults?.percentEncoded),
                substitution_variables = \(try variables(domain))::jsonb, legacy_paths = \(domain.legacyPaths),
                links = \(domain.links), long_link_previews = \(domain.longLinkPreviews), etag = etag + 1, updated_at = now()
            WHERE host = \(domain.host)
                AND (\(ETag.parse(expectedEtag))::bigint IS NULL OR etag = \(ETag.parse(expectedEtag)))
            """)
        guard rows.affectedRows == 1 else { throw try missingOrStale(domain.host, in: tx) }
        try tx.query("DELETE FROM domain_apps WHERE host = \(domain.host)")
        try insertApps(domain, in: tx)
        return try require(domain.host, in: tx)
    }

    /// Deletes the domain; returns what was deleted. FAILED_PRECONDITION while another domain is its alias.
    @discardableResult
    public func delete(_ host: String, expectedEtag: String?, in tx: Transaction) throws -> Stored<Domain> {
        guard let existing = try get(host, in: tx) else { throw StoreError.notFound(.domain(host)) }
        let rows = try tx.query(
            """
            DELETE FROM domains
            WHERE host = \(host) AND (\(ETag.parse(expectedEtag))::bigint IS NULL OR etag = \(ETag.parse(expectedEtag)))
            """)
        guard rows.affectedRows == 1 else { throw try missingOrStale(host, in: tx) }
        return existing
    }

    private func insertApps(_ domain: Domain, in tx: Transaction) throws {
        guard !domain.apps.isEmpty else { return }
        try tx.query(
            """
            INSERT INTO domain_apps (host, app, position)
            SELECT \(domain.host), app, ordinality - 1 FROM unnest(\(domain.apps)::text[]) WITH ORDINALITY AS a (app)
            """)
    }

    private func require(_ host: String, in tx: Transaction) throws -> Stored<Domain> {
        guard let domain = try get(host, in: tx) else { throw StoreError.notFound(.domain(host)) }
        return domain
    }

    private func missingOrStale(_ host: String, in tx: Transaction) throws -> StoreError {
        try get(host, in: tx) == nil
            ? .notFound(.domain(host)) : .stale(.domain(host))
    }

    private func variables(_ domain: Domain) throws -> SQLJSON? {
        try domain.substitutionVariables.map { try SQLJSON(encoding: $0) }
    }

    private func decode(_ row: SQLRow) throws -> Stored<Domain> {
        let caseSensitive = try row.optionalBool("default_case_sensitive")
        let percentEncoded = try row.optionalBool("default_percent_encoded")
        let domain = Domain(
            host: try row.string("host"), apps: try row.strings("apps"), aliasOf: try row.optionalString("alias_of"),
            defaults: caseSensitive == nil && percentEncoded == nil
                ? nil : MatchDefaults(caseSensitive: caseSensitive, percentEncoded: percentEncoded),
            substitutionVariables: try row.decodeIfPresent([String: [String]].self, "substitution_variables"),
            legacyPaths: try row.optionalBool("legacy_paths"), links: try row.optionalBool("links"),
            longLinkPreviews: try row.optionalBool("long_link_previews"))
        return try row.stored(domain)
    }
}
