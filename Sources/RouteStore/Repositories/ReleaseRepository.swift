import Foundation
import RouteCore

/// A release as stored: the model value, its etag and timestamps, and when it was last published/retired.
public struct StoredRelease: Sendable, Hashable {
    public var release: Release
    public var etag: String
    public var createTime: Date
    public var updateTime: Date
    /// When it last went live, if ever.
    public var publishTime: Date?
    /// When it was last retired, if ever.
    public var retireTime: Date?
}

/// Releases (`apps/{app}/platforms/{platform}/releases/{version}`): draft → live → retired.
/// Versions are keyed by their padded components, so `5.12` and `5.12.0` are the same release.
/// Every method runs in the caller's transaction.
public struct ReleaseRepository: Sendable {
    public init() {}

    private static let columns: SQLQuery = """
        app, platform, version_text, state, etag, created_at, updated_at, published_at, retired_at
        """

    /// Creates the release as a draft unless it exists; returns it either way, and whether it was created.
    public func upsertDraft(
        app: String, platform: Platform, version: Version, in tx: Transaction
    ) throws -> (release: StoredRelease, created: Bool) {
        let inserted = try tx.query(
            """
            INSERT INTO releases (app, platform, version, version_text)
            VALUES (\(app), \(platform.rawValue), \(version.key)::integer[], \(version.description))
            ON CONFLICT (app, platform, version) DO NOTHING
            RETURNING \(ReleaseRepository.columns)
            """)
        if let row = inserted.first { return (try decode(row), true) }
        return (try require(app: app, platform: platform, version: version, in: tx), false)
    }

    /// Moves the release to `state`, stamping `published_at`/`retired_at`. NOT_FOUND if it does not exist;
    /// a stale `expectedEtag` fails ABORTED.
    public func setState(
        app: String, platform: Platform, version: Version, to state: ReleaseState, expectedEtag: String? = nil,
        in tx: Transaction
    ) throws -> StoredRelease {
        let rows = try tx.query(
            """
            UPDATE releases SET state = \(state.rawValue),
                published_at = CASE WHEN \(state.rawValue) = 'live' THEN now() ELSE published_at END,
                retired_at = CASE WHEN \(state.rawValue) = 'retired' THEN now() ELSE retired_at END,
                etag = etag + 1, updated_at = now()
            WHERE app = \(app) AND platform = \(platform.rawValue) AND version = \(version.key)::integer[]
                AND (\(ETag.parse(expectedEtag))::bigint IS NULL OR etag = \(ETag.parse(expectedEtag)))
            RETURNING \(ReleaseRepository.columns)
            """)
        guard let row = rows.first else {
            throw try get(app: app, platform: platform, version: version, in: tx) == nil
                ? StoreError.notFound(name(app, platform, version)) : StoreError.stale(name(app, platform, version))
        }
        return try decode(row)
    }

    /// The release, or nil.
    public func get(app: String, platform: Platform, version: Version, in tx: Transaction) throws -> StoredRelease? {
        try tx.query(
            """
            SELECT \(ReleaseRepository.columns) FROM releases
            WHERE app = \(app) AND platform = \(platform.rawValue) AND version = \(version.key)::integer[]
            """
        ).first.map(decode)
    }

    /// The releases of `app` (optionally of one platform and state), by platform then newest version first.
    public func list(
        app: String, platform: Platform? = nil, state: ReleaseState? = nil, _ page: PageRequest = PageRequest(),
        in tx: Transaction
    ) throws -> Page<StoredRelease> {
        let after = try PageToken.read(page.pageToken, as: Key.self)
        let rows = try tx.query(
            """
            SELECT \(ReleaseRepository.columns), version FROM releases
            WHERE app = \(app) AND (\(platform?.rawValue)::text IS NULL OR platform = \(platform?.rawValue))
                AND (\(state?.rawValue)::text IS NULL OR state = \(state?.rawValue))
                AND (\(after?.platform)::text IS NULL OR platform > \(after?.platform)
                    OR (platform = \(after?.platform) AND version < \(after?.version)::integer[]))
            ORDER BY platform, version DESC LIMIT \(page.limit + 1)
            """)
        return PageToken.page(try rows.map(decode), limit: page.limit) {
            Key(platform: $0.release.platform.rawValue, version: $0.release.version.key)
        }
    }

    /// Deletes every release of `app` (deleting the app itself); returns how many there were.
    @discardableResult
    public func deleteAll(app: String, in tx: Transaction) throws -> Int {
        try tx.query("DELETE FROM releases WHERE app = \(app)").affectedRows
    }

    /// Every release of `app`, in the order `all` gives them (its block of `all`).
    public func all(app: String, in tx: Transaction) throws -> [StoredRelease] {
        try tx.query(
            "SELECT \(ReleaseRepository.columns) FROM releases WHERE app = \(app) ORDER BY app, platform, version"
        ).map(decode)
    }

    /// Every release of every app.
    public func all(in tx: Transaction) throws -> [StoredRelease] {
        try tx.query("SELECT \(ReleaseRepository.columns) FROM releases ORDER BY app, platform, version").map(decode)
    }

    private struct Key: Codable {
        var platform: String
        var version: [Int]
    }

    private func require(app: String, platform: Platform, version: Version, in tx: Transaction) throws -> StoredRelease
    {
        guard let release = try get(app: app, platform: platform, version: version, in: tx) else {
            throw StoreError.notFound(name(app, platform, version))
        }
        return release
    }

    private func name(_ app: String, _ platform: Platform, _ version: Version) -> ResourceName {
        .release(app: app, platform: platform, version: version)
    }

    private func decode(_ row: SQLRow) throws -> StoredRelease {
        guard let platform = Platform(rawValue: try row.string("platform")),
            let state = ReleaseState(rawValue: try row.string("state"))
        else { throw StoreError(.decodingFailed, detail: "releases.platform/state") }
        return StoredRelease(
            release: Release(
                app: try row.string("app"), platform: platform, version: try row.version("version_text"), state: state),
            etag: try row.string("etag"), createTime: try row.date("created_at"),
            updateTime: try row.date("updated_at"),
            publishTime: try row.optionalDate("published_at"), retireTime: try row.optionalDate("retired_at"))
    }
}
