import Foundation
import RouteCore

/// A short link as stored: the link, the app it belongs to, who made it, and whether it was deleted
/// (a deleted link keeps its row: its code is never handed out again, and it answers 404).
public struct StoredLink: Sendable, Hashable {
    public var link: ShortLink
    public var app: String
    public var createdBy: String
    public var expiresAt: Date?
    public var deleted: Bool
    public var etag: String
    public var createTime: Date
    public var updateTime: Date
    /// The link's place in the order of link writes (`link_changes`): a reader that has seen up to N reloads
    /// only what changed after it.
    public var changeID: Int64

    /// Whether a visitor is sent anywhere at `now`.
    public func isLive(at now: Date) -> Bool {
        !deleted && link.disabled != true && (expiresAt.map { now < $0 } ?? true)
    }
}

/// Short links (`domains/{host}/links/{code}`), in a table of their own: writing one regenerates nothing.
/// Every method runs in the caller's transaction.
public struct LinkRepository: Sendable {
    public init() {}

    private static let columns: SQLQuery = """
        domain, code, app, target, desktop_url, preview_title, preview_description, preview_image_url,
        ios_min_version, ios_fallback_url, android_min_version, android_fallback_url, expires_at, skip_landing,
        utm::text AS utm, tags, disabled, max_clicks, created_by, deleted_at, etag, created_at, updated_at, change_id
        """

    /// Stores a new link; ALREADY_EXISTS if its code is taken on its domain (deleted links included).
    public func create(_ link: ShortLink, app: String, by actor: String, in tx: Transaction) throws -> StoredLink {
        try mapUniqueViolation(.link(link.domain, link.code)) {
            try decode(
                tx.query(
                    """
                    INSERT INTO links (domain, code, app, target, desktop_url, preview_title, preview_description,
                        preview_image_url, ios_min_version, ios_fallback_url, android_min_version,
                        android_fallback_url, expires_at, skip_landing, utm, tags, disabled, max_clicks, created_by)
                    VALUES (\(link.domain), \(link.code), \(app), \(link.target), \(link.desktopUrl),
                        \(link.preview?.title), \(link.preview?.description), \(link.preview?.imageUrl),
                        \(link.ios?.minVersion), \(link.ios?.fallbackUrl), \(link.android?.minVersion),
                        \(link.android?.fallbackUrl), \(link.expiresAt)::timestamptz, \(link.skipLanding),
                        \(try link.utm.map(SQLJSON.init(encoding:)))::jsonb, \(link.tags)::text[], \(link.disabled), \(link.maxClicks), \(actor))
                    RETURNING \(LinkRepository.columns)
                    """)[0])
        }
    }

    /// Stores new links in one statement (their rows travel as one JSON parameter); ALREADY_EXISTS naming
    /// the first code taken on its domain (deleted links included), and nothing stored.
    public func create(_ links: [ShortLink], app: String, by actor: String, in tx: Transaction) throws -> [StoredLink] {
        guard !links.isEmpty else { return [] }
        if let taken = try taken(links, in: tx).first {
            throw StoreError(.alreadyExists, resource: .link(taken.domain, taken.code))
        }
        let rows = links.map { Row($0, app: app, actor: actor) }
        let stored = try mapUniqueViolation(.links(host: links[0].domain)) {
            try tx.query(
                """
                INSERT INTO links (domain, code, app, target, desktop_url, preview_title, preview_description,
                    preview_image_url, ios_min_version, ios_fallback_url, android_min_version,
                    android_fallback_url, expires_at, skip_landing, utm, tags, disabled, max_clicks, created_by)
                SELECT domain, code, app, target, desktop_url, preview_title, preview_description,
                    preview_image_url, ios_min_version, ios_fallback_url, android_min_version,
                    android_fallback_url, expires_at, skip_landing, utm, tags, disabled, max_clicks, created_by
                FROM jsonb_to_recordset(\(try SQLJSON(encoding: rows))::jsonb) AS x(domain text, code text,
                    app text, target text, desktop_url text, preview_title text, preview_description text,
                    preview_image_url text, ios_min_version text, ios_fallback_url text, android_min_version text,
                    android_fallback_url text, expires_at timestamptz, skip_landing boolean, utm jsonb, tags text[],
                    disabled boolean, max_clicks bigint, created_by text)
                RETURNING \(LinkRepository.columns)
                """
            ).map(decode)
        }
        // RETURNING follows no order: give them back as they were given.
        var byKey: [String: StoredLink] = [:]
        for link in stored { byKey["\(link.link.domain)/\(link.link.code)"] = link }
        return try links.map { link in
            guard let found = byKey["\(link.domain)/\(link.code)"] else { throw StoreError(.decodingFailed) }
            return found
        }
    }

    /// The (domain, code) pairs of `links` already used, deleted links included, in the order given.
    public func taken(_ links: [ShortLink], in tx: Transaction) throws -> [(domain: String, code: String)] {
        let used = try tx.query(
            """
            SELECT domain, code FROM links
            WHERE (domain, code) IN (SELECT * FROM unnest(\(links.map(\.domain))::text[], \(links.map(\.code))::text[]))
            """
        ).map { try "\($0.string("domain"))/\($0.string("code"))" }
        let set = Set(used)
        return links.filter { set.contains("\($0.domain)/\($0.code)") }.map { ($0.domain, $0.code) }
    }

    /// One row of a bulk insert, as `jsonb_to_recordset` reads it.
    private struct Row: Encodable {
        var domain, code, app, target: String
        var desktop_url, preview_title, preview_description, preview_image_url: String?
        var ios_min_version, ios_fallback_url, android_min_version, android_fallback_url, expires_at: String?
        var skip_landing: Bool?
        var utm: LinkCampaign?
        var tags: [String]?
        var disabled: Bool?
        var max_clicks: Int?
        var created_by: String

        init(_ link: ShortLink, app: String, actor: String) {
            (domain, code, self.app, target) = (link.domain, link.code, app, link.target)
            (desktop_url, preview_title) = (link.desktopUrl, link.preview?.title)
            (preview_description, preview_image_url) = (link.preview?.description, link.preview?.imageUrl)
            (ios_min_version, ios_fallback_url) = (link.ios?.minVersion, link.ios?.fallbackUrl)
            (android_min_version, android_fallback_url) = (link.android?.minVersion, link.android?.fallbackUrl)
            (expires_at, skip_landing, created_by) = (link.expiresAt, link.skipLanding, actor)
            (utm, tags, disabled, max_clicks) = (link.utm, link.tags, link.disabled, link.maxClicks)
        }
    }

    /// The link, deleted or not; nil when the code was never used on the domain.
    public func get(domain: String, code: String, in tx: Transaction) throws -> StoredLink? {
        try tx.query(
            prepared: "SELECT \(LinkRepository.columns) FROM links WHERE domain = \(domain) AND code = \(code)"
        )
        .first.map(decode)
    }

    /// Links not deleted, by domain and code; of one app when given, whose code or target contains `text`,
    /// which carry `tag`, and whose campaign is `campaign`, each when given.
    public func list(
        app: String?, text: String?, tag: String? = nil, campaign: String? = nil, _ page: PageRequest = PageRequest(),
        within scope: [String]? = nil, in tx: Transaction
    ) throws -> Page<StoredLink> {
        struct Key: Codable { var domain: String, code: String }
        let after = try PageToken.read(page.pageToken, as: Key.self) ?? Key(domain: "", code: "")
        let pattern = text.map {
            "%"
                + $0.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        }
        let rows = try tx.query(
            """
            SELECT \(LinkRepository.columns) FROM links
            WHERE deleted_at IS NULL AND (domain, code) > (\(after.domain), \(after.code))
                AND (\(app)::text IS NULL OR app = \(app))
                AND (\(scope)::text[] IS NULL OR app = ANY(\(scope)::text[]))
                AND (\(pattern)::text IS NULL OR code ILIKE \(pattern) OR target ILIKE \(pattern))
                AND (\(tag)::text IS NULL OR tags @> ARRAY[\(tag)::text])
                AND (\(campaign)::text IS NULL OR utm->>'campaign' = \(campaign))
            ORDER BY domain, code LIMIT \(page.limit + 1)
            """)
        return PageToken.page(try rows.map(decode), limit: page.limit) {
            Key(domain: $0.link.domain, code: $0.link.code)
        }
    }

    /// Replaces the link's fields (not its domain, code or app). A stale `expectedEtag` fails ABORTED.
    public func update(_ link: ShortLink, expectedEtag: String?, in tx: Transaction) throws -> StoredLink {
        let rows = try tx.query(
            """
            UPDATE links SET target = \(link.target), desktop_url = \(link.desktopUrl),
                preview_title = \(link.preview?.title), preview_description = \(link.preview?.description),
                preview_image_url = \(link.preview?.imageUrl), ios_min_version = \(link.ios?.minVersion),
                ios_fallback_url = \(link.ios?.fallbackUrl), android_min_version = \(link.android?.minVersion),
                android_fallback_url = \(link.android?.fallbackUrl), expires_at = \(link.expiresAt)::timestamptz,
                skip_landing = \(link.skipLanding), utm = \(try link.utm.map(SQLJSON.init(encoding:)))::jsonb,
                tags = \(link.tags)::text[], disabled = \(link.disabled), max_clicks = \(link.maxClicks),
                etag = etag + 1, updated_at = now(),
                change_id = nextval('link_changes')
            WHERE domain = \(link.domain) AND code = \(link.code) AND deleted_at IS NULL
                AND (\(ETag.parse(expectedEtag))::bigint IS NULL OR etag = \(ETag.parse(expectedEtag)))
            RETURNING \(LinkRepository.columns)
            """)
        guard let row = rows.first else { throw try missingOrStale(link.domain, link.code, in: tx) }
        return try decode(row)
    }

    /// How many links on `domain` are not deleted: a domain with any cannot be deleted.
    public func liveCount(domain: String, in tx: Transaction) throws -> Int {
        try tx.query("SELECT count(*) AS n FROM links WHERE domain = \(domain) AND deleted_at IS NULL")[0].int("n")
    }

    /// Marks the link deleted. A stale `expectedEtag` fails ABORTED.
    public func delete(domain: String, code: String, expectedEtag: String?, in tx: Transaction) throws -> StoredLink {
        let rows = try tx.query(
            """
            UPDATE links SET deleted_at = now(), etag = etag + 1, updated_at = now(),
                change_id = nextval('link_changes')
            WHERE domain = \(domain) AND code = \(code) AND deleted_at IS NULL
                AND (\(ETag.parse(expectedEtag))::bigint IS NULL OR etag = \(ETag.parse(expectedEtag)))
            RETURNING \(LinkRepository.columns)
            """)
        guard let row = rows.first else { throw try missingOrStale(domain, code, in: tx) }
        return try decode(row)
    }

    private func missingOrStale(_ domain: String, _ code: String, in tx: Transaction) throws -> StoreError {
        guard let found = try get(domain: domain, code: code, in: tx), !found.deleted else {
            return .notFound(.link(domain, code))
        }
        return .stale(.link(domain, code))
    }

    private func decode(_ row: SQLRow) throws -> StoredLink {
        let title = try row.optionalString("preview_title")
        let description = try row.optionalString("preview_description")
        let image = try row.optionalString("preview_image_url")
        func options(_ platform: String) throws -> LinkPlatformOptions? {
            let minimum = try row.optionalString("\(platform)_min_version")
            let fallback = try row.optionalString("\(platform)_fallback_url")
            return minimum == nil && fallback == nil
                ? nil : LinkPlatformOptions(minVersion: minimum, fallbackUrl: fallback)
        }
        let expires = try row.optionalDate("expires_at")
        let link = ShortLink(
            domain: try row.string("domain"), code: try row.string("code"), target: try row.string("target"),
            desktopUrl: try row.optionalString("desktop_url"),
            preview: title == nil && description == nil && image == nil
                ? nil : LinkPreview(title: title, description: description, imageUrl: image),
            ios: try options("ios"), android: try options("android"),
            expiresAt: expires.map { RFC3339.string($0) }, skipLanding: try row.optionalBool("skip_landing"),
            utm: try Self.campaign(row.optionalJSON("utm")), tags: try row.optionalStrings("tags"),
            disabled: try row.optionalBool("disabled"), maxClicks: try row.optionalInt("max_clicks"))
        return StoredLink(
            link: link, app: try row.string("app"), createdBy: try row.string("created_by"), expiresAt: expires,
            deleted: try row.optionalDate("deleted_at") != nil, etag: try row.string("etag"),
            createTime: try row.date("created_at"), updateTime: try row.date("updated_at"),
            changeID: Int64(try row.int("change_id")))
    }
}

extension LinkRepository {
    /// The `utm` column's object as a campaign; nil for NULL.
    static func campaign(_ json: Data?) throws -> LinkCampaign? {
        guard let json else { return nil }
        do { return try JSONDecoder().decode(LinkCampaign.self, from: json) } catch {
            throw StoreError(.decodingFailed, detail: "column utm is not a campaign")
        }
    }
}

/// RFC 3339 text of a time, in UTC with milliseconds.
enum RFC3339 {
    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
