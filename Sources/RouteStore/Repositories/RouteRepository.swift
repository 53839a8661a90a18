import Foundation
import RouteCore

/// Routes (`apps/{app}/routes/{id}`): an app's ordered rules, with per-platform version ranges and
/// switched-off versions. Every method runs in the caller's transaction.
public struct RouteRepository: Sendable {
    public init() {}

    /// The route row plus its platforms and switch-offs as JSON, so one query returns whole routes.
    private static let columns: SQLQuery = """
        r.app, r.id, r.position, r.scheme, r.path, r.query, r.fragment, r.case_sensitive, r.percent_encoded,
        r.action, r.comment, r.web_fallback, r.domains, r.etag, r.created_at, r.updated_at,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('platform', p.platform, 'since', p.since_text,
                'until', p.until_text)), '[]')
            FROM route_platforms p WHERE p.app = r.app AND p.route = r.id) AS platforms,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('platform', s.platform, 'version', s.version_text,
                'reason', s.reason) ORDER BY s.platform, s.version), '[]')
            FROM route_switch_offs s WHERE s.app = r.app AND s.route = r.id) AS switched_off
        """

    /// Stores a new route of `app`, last or just before the route `before`. ALREADY_EXISTS if the id is
    /// taken, NOT_FOUND if `before` is not a route of the app.
    public func create(_ route: Route, app: String, before: String? = nil, in tx: Transaction) throws -> Stored<Route> {
        let position = try makeRoom(1, app: app, before: before, in: tx)
        try insert(route, app: app, position: position, in: tx)
        return try require(app, route.id, in: tx)
    }

    /// Stores new routes of `app` in their order, last or just before the route `before`: one shift of the
    /// routes after them instead of one per route, and no read-back (the caller lists the app's routes once).
    /// ALREADY_EXISTS names the first id taken; the caller's transaction must then roll back.
    ///
    /// The rows travel as one JSON parameter per table (`jsonb_to_recordset`): one round trip per table
    /// however many routes, where a statement per row would cost a round trip per row.
    public func createMany(_ routes: [Route], app: String, before: String? = nil, in tx: Transaction) throws {
        let first = try makeRoom(routes.count, app: app, before: before, in: tx)
        let rows = try SQLJSON(encoding: routes.enumerated().map { NewRouteRow($1, position: first + $0) })
        try mapUniqueViolation(.routes(app: app)) {
            try tx.query(
                """
                INSERT INTO routes (app, id, position, scheme, path, query, fragment, case_sensitive,
                    percent_encoded, action, comment, web_fallback, domains)
                SELECT \(app), r.id, r.position, r.scheme, r.path, r.query, r.fragment, r.case_sensitive,
                    r.percent_encoded, r.action, r.comment, r.web_fallback, r.domains
                FROM jsonb_to_recordset(\(rows)::jsonb) AS r(id text, position integer, scheme text, path text,
                    query jsonb, fragment text, case_sensitive boolean, percent_encoded boolean, action text,
                    comment text, web_fallback text, domains text[])
                """)
        }
        let platforms = try SQLJSON(encoding: routes.flatMap(NewPlatformRow.rows))
        try tx.query(
            """
            INSERT INTO route_platforms (app, route, platform, since, since_text, until, until_text)
            SELECT \(app), p.route, p.platform, p.since, p.since_text, p.until, p.until_text
            FROM jsonb_to_recordset(\(platforms)::jsonb) AS p(route text, platform text, since integer[],
                since_text text, until integer[], until_text text)
            """)
        for route in routes where !route.switchedOff.isEmpty {
            try insertSwitchOffs(route, app: app, in: tx)
        }
    }

    /// The position of the first of `count` new routes: `before`'s (which moves down by `count`, with every
    /// route after it), or the end of the list.
    private func makeRoom(_ count: Int, app: String, before: String?, in tx: Transaction) throws -> Int {
        guard let before else {
            return try tx.query("SELECT coalesce(max(position) + 1, 0) AS next FROM routes WHERE app = \(app)")[0]
                .int("next")
        }
        let rows = try tx.query("SELECT position FROM routes WHERE app = \(app) AND id = \(before) FOR UPDATE")
        guard let row = rows.first else { throw StoreError.notFound(.route(app: app, id: before)) }
        let position = try row.int("position")
        try tx.query("UPDATE routes SET position = position + \(count) WHERE app = \(app) AND position >= \(position)")
        return position
    }

    private func insert(_ route: Route, app: String, position: Int, in tx: Transaction) throws {
        try mapUniqueViolation(.route(app: app, id: route.id)) {
            try tx.query(
                """
                INSERT INTO routes (app, id, position, scheme, path, query, fragment, case_sensitive,
                    percent_encoded, action, comment, web_fallback, domains)
                VALUES (\(app), \(route.id), \(position), \(route.pattern.scheme), \(route.pattern.path),
                    \(try route.pattern.query.map { try SQLJSON(encoding: $0) })::jsonb, \(route.pattern.fragment),
                    \(route.pattern.caseSensitive), \(route.pattern.percentEncoded), \(route.action.rawValue),
                    \(route.comment), \(route.webFallback), \(route.domains)::text[])
                """)
        }
        try insertDetails(route, app: app, in: tx)
    }

    /// The route, or nil.
    public func get(app: String, id: String, in tx: Transaction) throws -> Stored<Route>? {
        try tx.query(
            prepared: "SELECT \(RouteRepository.columns) FROM routes r WHERE r.app = \(app) AND r.id = \(id)"
        ).first.map(decode)
    }

    /// Every route of `app`, in evaluation order.
    public func all(app: String, in tx: Transaction) throws -> [Stored<Route>] {
        try tx.query("SELECT \(RouteRepository.columns) FROM routes r WHERE r.app = \(app) ORDER BY r.position")
            .map(decode)
    }

    /// The routes of `app`, in evaluation order, a page at a time.
    public func list(app: String, _ page: PageRequest = PageRequest(), in tx: Transaction) throws -> Page<Stored<Route>>
    {
        let after = try PageToken.read(page.pageToken, as: Int.self) ?? -1
        let rows = try tx.query(
            """
            SELECT \(RouteRepository.columns) FROM routes r WHERE r.app = \(app) AND r.position > \(after)
            ORDER BY r.position LIMIT \(page.limit + 1)
            """)
        let routes = try rows.map { (try decode($0), try $0.int("position")) }
        let page = PageToken.page(routes, limit: page.limit) { $0.1 }
        return Page(items: page.items.map(\.0), nextPageToken: page.nextPageToken)
    }

    /// How many routes of `app` come before the route `id` (0 when there is no such route): its position in
    /// the list, counted in SQL so finding one route's position decodes no other route.
    public func position(app: String, id: String, in tx: Transaction) throws -> Int {
        try tx.query(
            """
            SELECT count(*) AS n FROM routes WHERE app = \(app)
                AND position < (SELECT position FROM routes WHERE app = \(app) AND id = \(id))
            """)[0].int("n")
    }

    /// Which of `ids` are routes of `app` already: one query however many ids a batch holds.
    public func existingIDs(app: String, among ids: [String], in tx: Transaction) throws -> Set<String> {
        Set(
            try tx.query("SELECT id FROM routes WHERE app = \(app) AND id = ANY(\(ids)::text[])").map {
                try $0.string("id")
            })
    }

    /// Every route of every app, in evaluation order per app.
    public func allByApp(in tx: Transaction) throws -> [String: [Route]] {
        var result: [String: [Route]] = [:]
        for row in try tx.query("SELECT \(RouteRepository.columns) FROM routes r ORDER BY r.app, r.position") {
            result[try row.string("app"), default: []].append(try decode(row).value)
        }
        return result
    }

    /// Replaces the route's pattern, action, ranges, switch-offs, domains and comment (its position stays).
    /// A stale `expectedEtag` fails ABORTED.
    public func update(_ route: Route, app: String, expectedEtag: String?, in tx: Transaction) throws -> Stored<Route> {
        let rows = try tx.query(
            """
            UPDATE routes SET scheme = \(route.pattern.scheme), path = \(route.pattern.path),
                query = \(try route.pattern.query.map { try SQLJSON(encoding: $0) })::jsonb,
                fragment = \(route.pattern.fragment), case_sensitive = \(route.pattern.caseSensitive),
                percent_encoded = \(route.pattern.percentEncoded), action = \(route.action.rawValue),
                comment = \(route.comment), web_fallback = \(route.webFallback), domains = \(route.domains)::text[],
                etag = etag + 1, updated_at = now()
            WHERE app = \(app) AND id = \(route.id)
                AND (\(ETag.parse(expectedEtag))::bigint IS NULL OR etag = \(ETag.parse(expectedEtag)))
            """)
        guard rows.affectedRows == 1 else { throw try missingOrStale(app, route.id, in: tx) }
        try tx.query("DELETE FROM route_platforms WHERE app = \(app) AND route = \(route.id)")
        try tx.query("DELETE FROM route_switch_offs WHERE app = \(app) AND route = \(route.id)")
        try insertDetails(route, app: app, in: tx)
        return try require(app, route.id, in: tx)
    }

    /// Deletes the route; returns what was deleted.
    @discardableResult
    public func delete(app: String, id: String, expectedEtag: String?, in tx: Transaction) throws -> Stored<Route> {
        guard let existing = try get(app: app, id: id, in: tx) else {
            throw StoreError.notFound(.route(app: app, id: id))
        }
        let rows = try tx.query(
            """
            DELETE FROM routes WHERE app = \(app) AND id = \(id)
                AND (\(ETag.parse(expectedEtag))::bigint IS NULL OR etag = \(ETag.parse(expectedEtag)))
            """)
        guard rows.affectedRows == 1 else { throw try missingOrStale(app, id, in: tx) }
        return existing
    }

    /// Puts the app's routes in the order of `ids`, which must name each of its routes exactly once
    /// (INVALID_ARGUMENT otherwise). Returns the routes in their new order.
    public func reorder(app: String, ids: [String], in tx: Transaction) throws -> [Stored<Route>] {
        let current = try tx.query("SELECT id FROM routes WHERE app = \(app) FOR UPDATE").map { try $0.string("id") }
        guard ids.count == current.count, Set(ids) == Set(current) else {
            throw StoreError(.incompleteOrder, resource: .routes(app: app))
        }
        // One statement: the deferrable UNIQUE (app, position) is checked once it is done.
        try tx.query(
            """
            UPDATE routes r SET position = o.ordinality - 1
            FROM unnest(\(ids)::text[]) WITH ORDINALITY AS o (id)
            WHERE r.app = \(app) AND r.id = o.id
            """)
        return try all(app: app, in: tx)
    }

    /// Switches the route off for `versions` on `platform` (kill switch); switching off again updates the
    /// reason. Changes the route's etag.
    public func switchOff(
        app: String, id: String, platform: Platform, versions: [Version], reason: String?, in tx: Transaction
    ) throws -> Stored<Route> {
        try touch(app, id, in: tx)
        for version in versions {
            try tx.query(
                """
                INSERT INTO route_switch_offs (app, route, platform, version, version_text, reason)
                VALUES (\(app), \(id), \(platform.rawValue), \(version.key)::integer[], \(version.description), \(reason))
                ON CONFLICT (app, route, platform, version) DO UPDATE SET reason = EXCLUDED.reason, at = now()
                """)
        }
        return try require(app, id, in: tx)
    }

    /// Switches the route back on for `versions` on `platform`. Changes the route's etag.
    public func switchOn(
        app: String, id: String, platform: Platform, versions: [Version], in tx: Transaction
    ) throws -> Stored<Route> {
        try touch(app, id, in: tx)
        for version in versions {
            try tx.query(
                """
                DELETE FROM route_switch_offs
                WHERE app = \(app) AND route = \(id) AND platform = \(platform.rawValue) AND version = \(version.key)::integer[]
                """)
        }
        return try require(app, id, in: tx)
    }

    private func touch(_ app: String, _ id: String, in tx: Transaction) throws {
        let rows = try tx.query(
            "UPDATE routes SET etag = etag + 1, updated_at = now() WHERE app = \(app) AND id = \(id)")
        guard rows.affectedRows == 1 else { throw StoreError.notFound(.route(app: app, id: id)) }
    }

    private func insertDetails(_ route: Route, app: String, in tx: Transaction) throws {
        for (platform, range) in route.platforms.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try tx.query(
                """
                INSERT INTO route_platforms (app, route, platform, since, since_text, until, until_text)
                VALUES (\(app), \(route.id), \(platform.rawValue), \(range.since.key)::integer[],
                    \(range.since.description), \(range.until?.key)::integer[], \(range.until?.description))
                """)
        }
        try insertSwitchOffs(route, app: app, in: tx)
    }

    private func insertSwitchOffs(_ route: Route, app: String, in tx: Transaction) throws {
        for (platform, entries) in route.switchedOff {
            for entry in entries {
                try tx.query(
                    """
                    INSERT INTO route_switch_offs (app, route, platform, version, version_text, reason)
                    VALUES (\(app), \(route.id), \(platform.rawValue), \(entry.version.key)::integer[],
                        \(entry.version.description), \(entry.reason))
                    ON CONFLICT (app, route, platform, version) DO UPDATE SET reason = EXCLUDED.reason
                    """)
            }
        }
    }

    private func require(_ app: String, _ id: String, in tx: Transaction) throws -> Stored<Route> {
        guard let route = try get(app: app, id: id, in: tx) else {
            throw StoreError.notFound(.route(app: app, id: id))
        }
        return route
    }

    private func missingOrStale(_ app: String, _ id: String, in tx: Transaction) throws -> StoreError {
        try get(app: app, id: id, in: tx) == nil
            ? .notFound(.route(app: app, id: id)) : .stale(.route(app: app, id: id))
    }

    private struct PlatformRow: Decodable {
        var platform: Platform
        var since: Version
        var until: Version?
    }

    private struct SwitchOffRow: Decodable {
        var platform: Platform
        var version: Version
        var reason: String?
    }

    private func decode(_ row: SQLRow) throws -> Stored<Route> {
        var platforms: [Platform: VersionRange] = [:]
        for entry in try row.decode([PlatformRow].self, "platforms") {
            platforms[entry.platform] = VersionRange(since: entry.since, until: entry.until)
        }
        var switchedOff: [Platform: [SwitchedOff]] = [:]
        for entry in try row.decode([SwitchOffRow].self, "switched_off") {
            switchedOff[entry.platform, default: []].append(SwitchedOff(version: entry.version, reason: entry.reason))
        }
        guard let action = RouteAction(rawValue: try row.string("action")) else {
            throw StoreError(.decodingFailed, detail: "routes.action")
        }
        let pattern = URLPattern(
            scheme: try row.optionalString("scheme"), path: try row.optionalString("path"),
            query: try row.decodeIfPresent(QueryPattern.self, "query"), fragment: try row.optionalString("fragment"),
            caseSensitive: try row.optionalBool("case_sensitive"),
            percentEncoded: try row.optionalBool("percent_encoded"))
        let route = Route(
            id: try row.string("id"), pattern: pattern, action: action, platforms: platforms,
            switchedOff: switchedOff, domains: try row.strings("domains"),
            webFallback: try row.optionalString("web_fallback"), comment: try row.optionalString("comment"))
        return try row.stored(route)
    }
}

/// A `routes` row for `createMany`, named as the `jsonb_to_recordset` columns.
private struct NewRouteRow: Encodable {
    let id: String
    let position: Int
    let scheme: String?
    let path: String?
    let query: QueryPattern?
    let fragment: String?
    let caseSensitive: Bool?
    let percentEncoded: Bool?
    let action: String
    let comment: String?
    let webFallback: String?
    let domains: [String]

    init(_ route: Route, position: Int) {
        id = route.id
        self.position = position
        scheme = route.pattern.scheme
        path = route.pattern.path
        query = route.pattern.query
        fragment = route.pattern.fragment
        caseSensitive = route.pattern.caseSensitive
        percentEncoded = route.pattern.percentEncoded
        action = route.action.rawValue
        comment = route.comment
        webFallback = route.webFallback
        domains = route.domains
    }

    enum CodingKeys: String, CodingKey {
        case id, position, scheme, path, query, fragment, action, comment, domains
        case caseSensitive = "case_sensitive", percentEncoded = "percent_encoded", webFallback = "web_fallback"
    }
}

/// A `route_platforms` row for `createMany`.
private struct NewPlatformRow: Encodable {
    let route: String
    let platform: String
    let since: [Int]
    let sinceText: String
    let until: [Int]?
    let untilText: String?

    static func rows(_ route: Route) -> [NewPlatformRow] {
        route.platforms.sorted { $0.key.rawValue < $1.key.rawValue }.map { platform, range in
            NewPlatformRow(
                route: route.id, platform: platform.rawValue, since: range.since.key,
                sinceText: range.since.description,
                until: range.until?.key, untilText: range.until?.description)
        }
    }

    enum CodingKeys: String, CodingKey {
        case route, platform, since, until
        case sinceText = "since_text", untilText = "until_text"
    }
}
