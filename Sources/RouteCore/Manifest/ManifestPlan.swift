/// What applying a manifest would change in the registry, resource by resource, in the order they would be
/// applied (app, domains, routes), and what the registry holds that the manifest does not. Computed by
/// `ManifestPlan(manifest:state:)` from values alone, so it is the same on every machine and in tests.
public struct ManifestPlan: Sendable, Hashable, Codable {
    /// The registry state the plan was computed from.
    public var basis: Basis
    /// The changes, in apply order.
    public var changes: [Change]
    /// Resources of the registry the manifest leaves out: kept, unless a prune removes them.
    public var notInManifest: [Unmanaged]
    /// True when planned with a prune (managed routes the manifest leaves out are removals); absent otherwise.
    public var prune: Bool?
    /// The manifest planned, in a saved plan (`routereg plan --out`), so that `routereg apply PLAN` applies
    /// exactly what was reviewed; absent from a plan printed or answered by `Manifests.Plan`.
    public var manifest: Manifest?
    /// The rules each live version would gain or lose per domain (`liveLinks(state:after:releases:)`);
    /// absent when none would. Derived from the changes: an apply checks the basis and changes, not this.
    public var liveLinks: [LiveLinks]?

    public init(
        basis: Basis, changes: [Change], notInManifest: [Unmanaged], prune: Bool? = nil, manifest: Manifest? = nil,
        liveLinks: [LiveLinks]? = nil
    ) {
        self.basis = basis
        self.changes = changes
        self.notInManifest = notInManifest
        self.prune = prune
        self.manifest = manifest
        self.liveLinks = liveLinks
    }

    /// True when applying would change something (what `--detailed-exitcode` reports as 2).
    public var hasChanges: Bool { !changes.isEmpty }

    /// Which registry state a plan came from.
    public struct Basis: Sendable, Hashable, Codable {
        public var app: String
        /// `ManifestState.fingerprint` of the state read.
        public var fingerprint: String
        /// Whether the registry had the app.
        public var appExists: Bool
        public var domains: Int
        public var routes: Int

        public init(app: String, fingerprint: String, appExists: Bool, domains: Int, routes: Int) {
            self.app = app
            self.fingerprint = fingerprint
            self.appExists = appExists
            self.domains = domains
            self.routes = routes
        }
    }

    /// The kinds of resource a manifest holds.
    public enum Kind: String, Sendable, Hashable, Codable {
        case app, domain, route
    }

    /// One change to one resource.
    public struct Change: Sendable, Hashable, Codable {
        public enum Action: String, Sendable, Hashable, Codable {
            /// Created.
            case add
            /// Fields changed (`fields`).
            case change
            /// Moved in the evaluation order (routes only), to before `before` or last.
            case move
            /// Deleted (only when pruning).
            case remove
        }

        public var action: Action
        public var kind: Kind
        /// The app id, the host or the route id.
        public var id: String
        /// For `change`: each field that differs.
        public var fields: [FieldChange]
        /// For an added or moved route: the route it goes before; nil: last.
        public var before: String?
        /// For an added route: its pattern and versions as people read them (`/l/a/* (ios 5.12.0+)`).
        public var summary: String?

        public init(
            action: Action, kind: Kind, id: String, fields: [FieldChange] = [], before: String? = nil,
            summary: String? = nil
        ) {
            self.action = action
            self.kind = kind
            self.id = id
            self.fields = fields
            self.before = before
            self.summary = summary
        }
    }

    /// One field of a resource, before and after, as JSON (absent: not set).
    public struct FieldChange: Sendable, Hashable, Codable {
        /// Dotted path in the resource (`platforms.ios.since`, `ios.appIds`).
        public var field: String
        public var from: JSONValue?
        public var to: JSONValue?

        public init(field: String, from: JSONValue?, to: JSONValue?) {
            self.field = field
            self.from = from
            self.to = to
        }
    }

    /// A registry resource the manifest does not list.
    public struct Unmanaged: Sendable, Hashable, Codable {
        public var kind: Kind
        public var id: String
        /// For a route: whether a manifest manages it (only those a prune removes); absent for domains.
        public var managed: Bool?

        public init(kind: Kind, id: String, managed: Bool? = nil) {
            self.kind = kind
            self.id = id
            self.managed = managed
        }
    }
}
