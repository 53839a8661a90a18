import Foundation
import RouteCore

/// One audit entry as stored: who changed what, when, with the resource before and after (JSON).
public struct StoredAuditEntry: Sendable, Hashable {
    public var id: Int64
    public var at: Date
    public var actor: String
    /// The API method, e.g. `Releases.Publish`.
    public var method: String
    /// The resource name, e.g. `apps/badoo/platforms/ios/releases/5.12.0`.
    public var resource: String
    public var before: Data?
    public var after: Data?
    public var requestID: String?

    public init(
        id: Int64, at: Date, actor: String, method: String, resource: String, before: Data?, after: Data?,
        requestID: String?
    ) {
        self.id = id
        self.at = at
        self.actor = actor
        self.method = method
        self.resource = resource
        self.before = before
        self.after = after
        self.requestID = requestID
    }
}

/// The audit log: append-only (the table refuses UPDATE and DELETE). Every method runs in the caller's
/// transaction, so an entry commits or rolls back with the change it describes.
public struct AuditRepository: Sendable {
    public init() {}

    private static let columns: SQLQuery = "id, at, actor, method, resource, before, after, request_id"

    /// Appends an entry; `before`/`after` are JSON documents (nil for none); `apps` the apps the write
    /// touched (nil: none in particular, or every app), which decides whose tokens see it.
    @discardableResult
    public func append(
        actor: String, method: String, resource: String, before: SQLJSON?, after: SQLJSON?, requestID: String?,
        writeToken: String? = nil, apps: [String]? = nil, in tx: Transaction
    ) throws -> StoredAuditEntry {
        try decode(
            tx.query(
                prepared: """
                    INSERT INTO audit (actor, method, resource, before, after, request_id, write_token, apps)
                    VALUES (\(actor), \(method), \(resource), \(before)::jsonb, \(after)::jsonb, \(requestID),
                        coalesce(\(writeToken)::uuid, gen_random_uuid()), \(apps)::text[])
                    RETURNING \(AuditRepository.columns)
                    """)[0])
    }

    /// Entries, newest first.
    ///
    /// With `resource`, only the entries of that resource and the resources below it (`apps/badoo` matches
    /// `apps/badoo/routes/profile`, not `apps/badoo2`). With `scope`, only the entries of writes that touched
    /// one of its apps (entries older than migration 0006 record no apps: those under `apps/{app}` count).
    public func list(
        _ page: PageRequest = PageRequest(), resource: String? = nil, within scope: [String]? = nil,
        in tx: Transaction
    ) throws -> Page<StoredAuditEntry> {
        let before = try PageToken.read(page.pageToken, as: Int64.self) ?? Int64.max
        let rows = try tx.query(
            """
            SELECT \(AuditRepository.columns) FROM audit
            WHERE id < \(before)
                AND (\(resource)::text IS NULL OR resource = \(resource) OR starts_with(resource, \(resource) || '/'))
                AND (\(scope)::text[] IS NULL OR apps && \(scope)::text[]
                    OR (apps IS NULL AND starts_with(resource, 'apps/')
                        AND split_part(resource, '/', 2) = ANY(\(scope)::text[])))
            ORDER BY id DESC LIMIT \(page.limit + 1)
            """)
        return PageToken.page(try rows.map(decode), limit: page.limit) { $0.id }
    }

    private func decode(_ row: SQLRow) throws -> StoredAuditEntry {
        StoredAuditEntry(
            id: Int64(try row.int("id")), at: try row.date("at"), actor: try row.string("actor"),
            method: try row.string("method"), resource: try row.string("resource"),
            before: try row.optionalJSON("before"), after: try row.optionalJSON("after"),
            requestID: try row.optionalString("request_id"))
    }
}
