import Foundation
import RouteCore

/// A route's manifest marker as stored (migration 0010): the source of the last apply that wrote it, and when.
public struct StoredRouteManagement: Sendable, Hashable {
    public var source: String?
    public var appliedAt: Date
}

extension RouteRepository {
    /// The markers of `app`'s routes a manifest manages, by route id (routes managed by hand are absent).
    public func management(app: String, in tx: Transaction) throws -> [String: StoredRouteManagement] {
        var result: [String: StoredRouteManagement] = [:]
        for row in try tx.query(
            """
            SELECT id, manifest_source, manifest_applied_at FROM routes
            WHERE app = \(app) AND manifest_applied_at IS NOT NULL
            """)
        {
            result[try row.string("id")] = StoredRouteManagement(
                source: try row.optionalString("manifest_source"), appliedAt: try row.date("manifest_applied_at"))
        }
        return result
    }

    /// The marker of one route, nil when it is managed by hand (or does not exist).
    public func management(app: String, id: String, in tx: Transaction) throws -> StoredRouteManagement? {
        try tx.query(
            """
            SELECT manifest_source, manifest_applied_at FROM routes
            WHERE app = \(app) AND id = \(id) AND manifest_applied_at IS NOT NULL
            """
        ).first.map {
            StoredRouteManagement(
                source: try $0.optionalString("manifest_source"), appliedAt: try $0.date("manifest_applied_at"))
        }
    }

    /// Marks `ids` of `app` as managed by the manifest from `source`. A route whose marker changes (newly
    /// adopted, or another source) gets a new etag, so a plan computed before sees the registry moved; one
    /// already marked by this source is left alone, so applying an unchanged manifest writes nothing.
    public func manage(app: String, ids: [String], source: String?, in tx: Transaction) throws {
        try tx.query(
            """
            UPDATE routes SET manifest_source = \(source), manifest_applied_at = now(), etag = etag + 1,
                updated_at = now()
            WHERE app = \(app) AND id = ANY(\(ids)::text[])
                AND (manifest_applied_at IS NULL OR manifest_source IS DISTINCT FROM \(source)::text)
            """)
    }
}
