extension API {
    /// What applying a manifest would change, computed by the server from the database: the same plan as
    /// `routereg plan --json`, for clients that plan without the CLI.
    public enum ManifestsPlan: RPCMethodDescriptor {
        public static let name = "Manifests.Plan"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .app(input.manifest.app.id) }
        public struct Input: Codable, Sendable {
            public var manifest: Manifest
            /// Plan removals of the managed routes the manifest leaves out.
            public var prune: Bool?
            public init(manifest: Manifest, prune: Bool? = nil) {
                self.manifest = manifest
                self.prune = prune
            }
        }
        public typealias Output = ManifestPlan
    }

    /// Applies a manifest's routes as one write: every route added, changed, moved or (with `prune`) removed,
    /// all or nothing, one audit entry naming `source`. Refused (FAILED_PRECONDITION, nothing written) when
    /// the registry moved since `basis`, when the plan is not the reviewed `changes`, when a releaser's
    /// manifest changes the app or its domains (an admin's apply writes them too, never deleting a domain),
    /// or when a prune would drop a route a live version opens and `allowBreaking` is not set.
    public enum ManifestsApply: RPCMethodDescriptor {
        public static let name = "Manifests.Apply"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.manifest.app.id) }
        /// `source` is at most this long.
        public static let maxSourceLength = 200
        public struct Params: Codable, Sendable {
            public var manifest: Manifest
            /// The registry state the reviewed plan was computed from; absent: apply whatever the state is.
            public var basis: ManifestPlan.Basis?
            /// The reviewed plan's changes: the plan computed now must be exactly these.
            public var changes: [ManifestPlan.Change]?
            /// Remove the managed routes the manifest leaves out.
            public var prune: Bool?
            /// Let a prune remove routes live versions still open.
            public var allowBreaking: Bool?
            /// The manifest's commit or origin, recorded in the audit entry and on every route it manages.
            public var source: String?
            public init(
                manifest: Manifest, basis: ManifestPlan.Basis? = nil, changes: [ManifestPlan.Change]? = nil,
                prune: Bool? = nil, allowBreaking: Bool? = nil, source: String? = nil
            ) {
                self.manifest = manifest
                self.basis = basis
                self.changes = changes
                self.prune = prune
                self.allowBreaking = allowBreaking
                self.source = source
            }
        }
        public typealias Input = WriteRequest<Params>
        public struct Output: Codable, Sendable, Hashable {
            /// The plan applied.
            public var plan: ManifestPlan
            /// `ManifestState.fingerprint` of the registry after the apply: what the next plan's basis is.
            public var fingerprint: String
            public init(plan: ManifestPlan, fingerprint: String) {
                self.plan = plan
                self.fingerprint = fingerprint
            }
        }
    }
}
