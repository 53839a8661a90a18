/// The metadata every stored resource carries on the wire, next to its own fields.
public struct ResourceMeta: Codable, Sendable, Hashable {
    /// The AIP-style resource name (`apps/badoo/routes/profile`).
    public var name: String
    /// Opaque version tag for optimistic concurrency; send it back with Update/Delete.
    public var etag: String
    public var createTime: String
    public var updateTime: String?

    public init(name: String, etag: String, createTime: String, updateTime: String? = nil) {
        self.name = name
        self.etag = etag
        self.createTime = createTime
        self.updateTime = updateTime
    }
}

/// A model value with its resource metadata, encoded flat (`{"id": …, "name": "apps/badoo", "etag": …}`),
/// as the protobuf JSON mapping of a resource message would be.
public struct Resource<Value: Codable & Sendable & Hashable>: FlatCodable, Sendable, Hashable {
    public var value: Value
    public var meta: ResourceMeta

    public init(_ value: Value, meta: ResourceMeta) {
        self.value = value
        self.meta = meta
    }

    public var halves: (Value, ResourceMeta) { (value, meta) }
    public init(halves: (Value, ResourceMeta)) { self.init(halves.0, meta: halves.1) }
}

/// A route as the API shows it: the rule, the app it belongs to and its place in the evaluation order.
public struct RouteResource: Codable, Sendable, Hashable {
    public var route: Route
    public var app: String
    /// 0-based position in the app's evaluation order.
    public var position: Int
    public var meta: ResourceMeta
    /// Set when a manifest manages the route (`Manifests.Apply` created or adopted it): a prune may remove
    /// it. Nil for a route people manage by hand.
    public var managedBy: RouteManagement?

    public init(
        route: Route, app: String, position: Int, meta: ResourceMeta, managedBy: RouteManagement? = nil
    ) {
        self.route = route
        self.app = app
        self.position = position
        self.meta = meta
        self.managedBy = managedBy
    }

    enum CodingKeys: String, CodingKey { case app, position, managedBy }

    public init(from decoder: any Decoder) throws {
        route = try Route(from: decoder)
        meta = try ResourceMeta(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        app = try c.decode(String.self, forKey: .app)
        position = try c.decode(Int.self, forKey: .position)
        managedBy = try c.decodeIfPresent(RouteManagement.self, forKey: .managedBy)
    }

    public func encode(to encoder: any Encoder) throws {
        try route.encode(to: encoder)
        try meta.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(app, forKey: .app)
        try c.encode(position, forKey: .position)
        try c.encodeIfPresent(managedBy, forKey: .managedBy)
    }
}

/// Which manifest manages a route: the source (its commit or origin, as `Manifests.Apply` was told) of the
/// apply that adopted it or last changed that source, and when.
public struct RouteManagement: Codable, Sendable, Hashable {
    /// The manifest's commit or origin; nil when the apply named none.
    public var source: String?
    /// When that apply marked the route (RFC 3339).
    public var applyTime: String

    public init(source: String?, applyTime: String) {
        self.source = source
        self.applyTime = applyTime
    }
}

/// A release as the API shows it.
public struct ReleaseResource: Codable, Sendable, Hashable {
    public var name: String
    public var app: String
    public var platform: Platform
    public var version: Version
    public var state: ReleaseState
    public var createTime: String
    public var publishTime: String?
    public var retireTime: String?

    public init(
        name: String, app: String, platform: Platform, version: Version, state: ReleaseState, createTime: String,
        publishTime: String? = nil, retireTime: String? = nil
    ) {
        self.name = name
        self.app = app
        self.platform = platform
        self.version = version
        self.state = state
        self.createTime = createTime
        self.publishTime = publishTime
        self.retireTime = retireTime
    }
}

/// An API credential, without its secret (which is shown once, at creation).
public struct TokenResource: Codable, Sendable, Hashable {
    public var name: String
    public var id: String
    public var displayName: String
    public var role: Access
    public var createTime: String
    public var revokeTime: String?
    /// The apps it may act on; absent: every app.
    public var apps: [String]?
    /// When it stops working; absent: never.
    public var expiresAt: String?
    /// When it last authenticated a call, to within a few seconds (uses are recorded in batches); absent:
    /// never used since uses were recorded.
    public var lastUsedAt: String?

    public init(
        name: String, id: String, displayName: String, role: Access, createTime: String, revokeTime: String? = nil,
        apps: [String]? = nil, expiresAt: String? = nil, lastUsedAt: String? = nil
    ) {
        self.name = name
        self.id = id
        self.displayName = displayName
        self.role = role
        self.createTime = createTime
        self.revokeTime = revokeTime
        self.apps = apps
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
    }
}

/// One append-only audit record: who changed what, when, before and after.
public struct AuditEntry: Codable, Sendable, Hashable {
    public var id: String
    public var at: String
    public var actor: String
    public var method: String
    public var resource: String
    public var before: JSONValue?
    public var after: JSONValue?
    /// The server's id of the request that wrote it (`data.requestId` of errors, the request log's id).
    public var requestID: String?

    public init(
        id: String, at: String, actor: String, method: String, resource: String, before: JSONValue?,
        after: JSONValue?, requestID: String?
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

    /// Swift spells the acronym `ID`, as the store does; the wire name stays `requestId`.
    enum CodingKeys: String, CodingKey {
        case id, at, actor, method, resource, before, after
        case requestID = "requestId"
    }
}

/// A generated file's new state after a write: which revision it is at and whether the write changed it.
public struct RevisionRef: Codable, Sendable, Hashable {
    public var host: String
    public var kind: DocumentKind
    public var revision: Int
    public var etag: String
    public var changed: Bool

    public init(host: String, kind: DocumentKind, revision: Int, etag: String, changed: Bool) {
        self.host = host
        self.kind = kind
        self.revision = revision
        self.etag = etag
        self.changed = changed
    }
}

/// The two generated documents a domain serves.
public enum DocumentKind: String, Codable, Sendable, Hashable, CaseIterable {
    /// `apple-app-site-association`
    case aasa
    /// `assetlinks.json`
    case assetlinks
}

/// Identifies one generated document of a domain: what its revision numbers count within (1, 2, 3… per key)
/// and what a snapshot serves by.
public struct DocumentKey: Sendable, Hashable, Codable {
    public var host: String
    public var kind: DocumentKind

    public init(host: String, kind: DocumentKind) {
        self.host = host
        self.kind = kind
    }
}

/// A revision as listed: number, ETag, what caused it and when.
public struct RevisionSummary: Codable, Sendable, Hashable {
    public var revision: Int
    public var etag: String
    public var cause: String
    public var createTime: String

    public init(revision: Int, etag: String, cause: String, createTime: String) {
        self.revision = revision
        self.etag = etag
        self.cause = cause
        self.createTime = createTime
    }
}
