extension API {
    /// The params of a release write (`Releases.Create`, `.Publish`, `.Retire`): the release's key, and an
    /// idempotency key.
    public typealias ReleaseInput = WriteRequest<ReleaseKey>

    /// What a publish or retire did: the release's new state, every domain's generated files, and lint.
    public struct ReleaseChange: Codable, Sendable {
        public var release: ReleaseResource
        public var revisions: [RevisionRef]
        public var lint: [LintFinding]
        public init(release: ReleaseResource, revisions: [RevisionRef], lint: [LintFinding]) {
            self.release = release
            self.revisions = revisions
            self.lint = lint
        }
    }

    public enum ReleasesCreate: RPCMethodDescriptor {
        public static let name = "Releases.Create"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public typealias Input = ReleaseInput
        public typealias Output = ReleaseResource
    }

    public enum ReleasesPublish: RPCMethodDescriptor {
        public static let name = "Releases.Publish"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public typealias Input = ReleaseInput
        public typealias Output = ReleaseChange
    }

    public enum ReleasesRetire: RPCMethodDescriptor {
        public static let name = "Releases.Retire"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public typealias Input = ReleaseInput
        public typealias Output = ReleaseChange
    }

    public enum ReleasesGet: RPCMethodDescriptor {
        public static let name = "Releases.Get"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        /// A read takes no idempotency key: its params are the release's key alone, exactly what the
        /// document says.
        public typealias Input = ReleaseKey
        public typealias Output = ReleaseResource
    }

    public enum ReleasesList: RPCMethodDescriptor, PageKey {
        public static let name = "Releases.List"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .app(input.filter.app) }
        public typealias Input = ListRequest<Filter>
        public struct Filter: Codable, Sendable {
            public var app: String
            public var platform: Platform?
            public var state: ReleaseState?
            public init(app: String, platform: Platform? = nil, state: ReleaseState? = nil) {
                self.app = app
                self.platform = platform
                self.state = state
            }
        }
        public typealias Output = Page<ReleasesList, ReleaseResource>
        public static let items = "releases"
    }
}
