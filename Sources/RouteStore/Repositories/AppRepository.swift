import RouteCore

/// Apps (`apps/{id}`): their iOS and Android identities, schemes, fallback policy and matching defaults.
/// Every method runs in the caller's transaction.
public struct AppRepository: Sendable {
    public init() {}

    private static let columns: SQLQuery = """
        id, display_name, ios_app_ids, ios_webcredentials, ios_app_clips, ios_app_store_id,
        ios_app_store_provider_token, android_package, android_fingerprints, schemes, fallback_query_item,
        fallback_value, default_case_sensitive, default_percent_encoded, hosts, etag, created_at, updated_at
        """

    /// Stores a new app; ALREADY_EXISTS if the id is taken.
    public func create(_ app: App, in tx: Transaction) throws -> Stored<App> {
        try mapUniqueViolation(.app(app.id)) {
            try decode(
                tx.query(
                    """
                    INSERT INTO apps (id, display_name, ios_app_ids, ios_webcredentials, ios_app_clips,
                        ios_app_store_id, ios_app_store_provider_token, android_package, android_fingerprints,
                        schemes, fallback_query_item, fallback_value, default_case_sensitive, default_percent_encoded,
                        hosts)
                    VALUES (\(app.id), \(app.displayName), \(app.ios?.appIds)::text[], \(app.ios?.webcredentials),
                        \(app.ios?.appClips)::text[], \(app.ios?.appStoreId), \(app.ios?.appStoreProviderToken),
                        \(app.android?.packageName),
                        \(app.android?.sha256CertFingerprints ?? [])::text[], \(app.schemes)::text[],
                        \(app.fallback.queryItem), \(app.fallback.value), \(app.defaults?.caseSensitive),
                        \(app.defaults?.percentEncoded), \(Self.hosts(app))::text[])
                    RETURNING \(AppRepository.columns)
                    """)[0])
        }
    }

    /// The app, or nil.
    public func get(_ id: String, in tx: Transaction) throws -> Stored<App>? {
        try tx.query(prepared: "SELECT \(AppRepository.columns) FROM apps WHERE id = \(id)").first.map(decode)
    }

    /// Apps in id order.
    /// With `scope`, only those apps.
    public func list(
        _ page: PageRequest = PageRequest(), within scope: [String]? = nil, in tx: Transaction
    ) throws -> Page<Stored<App>> {
        let after = try PageToken.read(page.pageToken, as: String.self) ?? ""
        let rows = try tx.query(
            """
            SELECT \(AppRepository.columns) FROM apps
            WHERE id > \(after) AND (\(scope)::text[] IS NULL OR id = ANY(\(scope)::text[]))
            ORDER BY id LIMIT \(page.limit + 1)
            """)
        return PageToken.page(try rows.map(decode), limit: page.limit) { $0.value.id }
    }

    /// Every app, in id order.
    public func all(in tx: Transaction) throws -> [Stored<App>] {
        try tx.query("SELECT \(AppRepository.columns) FROM apps ORDER BY id").map(decode)
    }

    /// Replaces the app's fields. `expectedEtag` nil skips the check; a stale one fails ABORTED.
    public func update(_ app: App, expectedEtag: String?, in tx: Transaction) throws -> Stored<App> {
        let rows = try tx.query(
            """
            UPDATE apps SET display_name = \(app.displayName), ios_app_ids = \(app.ios?.appIds)::text[],
                ios_webcredentials = \(app.ios?.webcredentials), ios_app_clips = \(app.ios?.appClips)::text[],
                ios_app_store_id = \(app.ios?.appStoreId),
                ios_app_store_provider_token = \(app.ios?.appStoreProviderToken),
                android_package = \(app.android?.packageName),
                android_fingerprints = \(app.android?.sha256CertFingerprints ?? [])::text[],
                schemes = \(app.schemes)::text[], fallback_query_item = \(app.fallback.queryItem),
                fallback_value = \(app.fallback.value), default_case_sensitive = \(app.defaults?.caseSensitive),
                default_percent_encoded = \(app.defaults?.percentEncoded), hosts = \(Self.hosts(app))::text[],
                etag = etag + 1, updated_at = now()
            WHERE id = \(app.id) AND (\(ETag.parse(expectedEtag))::bigint IS NULL OR etag = \(ETag.parse(expectedEtag)))
            RETURNING \(AppRepository.columns)
            """)
        guard let row = rows.first else { throw try missingOrStale(app.id, in: tx) }
        return try decode(row)
    }

    /// Deletes the app and its routes; returns what was deleted. FAILED_PRECONDITION while a domain lists
    /// it or it has releases.
    @discardableResult
    public func delete(_ id: String, expectedEtag: String?, in tx: Transaction) throws -> Stored<App> {
        let rows = try tx.query(
            """
            DELETE FROM apps
            WHERE id = \(id) AND (\(ETag.parse(expectedEtag))::bigint IS NULL OR etag = \(ETag.parse(expectedEtag)))
            RETURNING \(AppRepository.columns)
            """)
        guard let row = rows.first else { throw try missingOrStale(id, in: tx) }
        return try decode(row)
    }

    private func missingOrStale(_ id: String, in tx: Transaction) throws -> StoreError {
        try get(id, in: tx) == nil
            ? .notFound(.app(id)) : .stale(.app(id))
    }

    private func decode(_ row: SQLRow) throws -> Stored<App> {
        let ios = try row.optionalStrings("ios_app_ids").map {
            IOSConfig(
                appIds: $0, webcredentials: try row.optionalBool("ios_webcredentials"),
                appClips: try row.optionalStrings("ios_app_clips"),
                appStoreId: try row.optionalString("ios_app_store_id"),
                appStoreProviderToken: try row.optionalString("ios_app_store_provider_token"))
        }
        let android = try row.optionalString("android_package").map {
            AndroidConfig(packageName: $0, sha256CertFingerprints: try row.strings("android_fingerprints"))
        }
        let caseSensitive = try row.optionalBool("default_case_sensitive")
        let percentEncoded = try row.optionalBool("default_percent_encoded")
        let app = App(
            id: try row.string("id"), displayName: try row.optionalString("display_name"), ios: ios,
            android: android, schemes: try row.strings("schemes"),
            fallback: FallbackPolicy(
                queryItem: try row.string("fallback_query_item"), value: try row.string("fallback_value")),
            defaults: caseSensitive == nil && percentEncoded == nil
                ? nil : MatchDefaults(caseSensitive: caseSensitive, percentEncoded: percentEncoded),
            hosts: try row.optionalStrings("hosts"))
        return try row.stored(app)
    }

    /// The host patterns as stored: none is NULL, so an app reads back the same whether it sent `[]` or nothing.
    private static func hosts(_ app: App) -> [String]? {
        guard let hosts = app.hosts, !hosts.isEmpty else { return nil }
        return hosts
    }
}
