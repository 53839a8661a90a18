extension API {
    public enum AssociationsGet: RPCMethodDescriptor {
        public static let name = "Associations.Get"
        public static let access = Access.public
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ _: Input) -> CallScope { .unscoped }
        public struct Input: Codable, Sendable {
            public var host: String
            public var kind: DocumentKind?
            public var revision: Int?
            public init(host: String, kind: DocumentKind? = nil, revision: Int? = nil) {
                self.host = host
                self.kind = kind
                self.revision = revision
            }
        }
        public struct Output: Codable, Sendable {
            public var host: String
            public var kind: DocumentKind
            public var revision: Int
            public var etag: String
            public var cause: String
            public var createTime: String
            public var document: JSONValue
            public init(
                host: String, kind: DocumentKind, revision: Int, etag: String, cause: String, createTime: String,
                document: JSONValue
            ) {
                self.host = host
                self.kind = kind
                self.revision = revision
                self.etag = etag
                self.cause = cause
                self.createTime = createTime
                self.document = document
            }
        }
    }

    public enum AssociationsListRevisions: RPCMethodDescriptor, PageKey {
        public static let name = "Associations.ListRevisions"
        public static let access = Access.public
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ _: Input) -> CallScope { .unscoped }
        public typealias Input = ListRequest<Filter>
        public struct Filter: Codable, Sendable {
            public var host: String
            public var kind: DocumentKind?
            public init(host: String, kind: DocumentKind? = nil) {
                self.host = host
                self.kind = kind
            }
        }
        public typealias Output = Page<AssociationsListRevisions, RevisionSummary>
        public static let items = "revisions"
    }

    public enum AssociationsDiff: RPCMethodDescriptor {
        public static let name = "Associations.Diff"
        public static let access = Access.public
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ _: Input) -> CallScope { .unscoped }
        public struct Input: Codable, Sendable {
            public var host: String
            public var kind: DocumentKind?
            public var fromRevision: Int
            public var toRevision: Int
            public init(host: String, kind: DocumentKind? = nil, fromRevision: Int, toRevision: Int) {
                self.host = host
                self.kind = kind
                self.fromRevision = fromRevision
                self.toRevision = toRevision
            }
        }
        public typealias Output = DocumentDiff
    }

    public enum AssociationsPreview: RPCMethodDescriptor {
        public static let name = "Associations.Preview"
        public static let access = Access.releaser
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public enum Action: String, Codable, Sendable { case publish, retire }
        public struct Input: Codable, Sendable {
            public var app: String
            public var platform: Platform
            public var version: Version
            public var action: Action
            public init(app: String, platform: Platform, version: Version, action: Action) {
                self.app = app
                self.platform = platform
                self.version = version
                self.action = action
            }
        }
        public struct Document: Codable, Sendable {
            public var host: String
            public var kind: DocumentKind
            public var etag: String
            public var changed: Bool
            public var document: JSONValue
            public var diff: DocumentDiff
            public init(
                host: String, kind: DocumentKind, etag: String, changed: Bool, document: JSONValue, diff: DocumentDiff
            ) {
                self.host = host
                self.kind = kind
                self.etag = etag
                self.changed = changed
                self.document = document
                self.diff = diff
            }
        }
        public struct Output: Codable, Sendable {
            public var documents: [Document]
            public var lint: [LintFinding]
            public init(documents: [Document], lint: [LintFinding]) {
                self.documents = documents
                self.lint = lint
            }
        }
    }

    public enum AssociationsWatch: RPCMethodDescriptor {
        public static let name = "Associations.Watch"
        public static let access = Access.public
        public static let traits = MethodTraits.read(from: .snapshot)
        public static func scope(_ _: Input) -> CallScope { .unscoped }
        public struct Input: Codable, Sendable {
            public var host: String
            public var kind: DocumentKind?
            public var ifNoneMatch: String?
            /// How long to wait for a change (default 30,000 ms, at most 60,000).
            public var timeoutMs: Int?
            public init(host: String, kind: DocumentKind? = nil, ifNoneMatch: String? = nil, timeoutMs: Int? = nil) {
                self.host = host
                self.kind = kind
                self.ifNoneMatch = ifNoneMatch
                self.timeoutMs = timeoutMs
            }
        }
        public struct Output: Codable, Sendable {
            public var host: String
            public var kind: DocumentKind
            public var revision: Int
            public var etag: String
            public var notModified: Bool
            public var document: JSONValue?
            public init(
                host: String, kind: DocumentKind, revision: Int, etag: String, notModified: Bool, document: JSONValue?
            ) {
                self.host = host
                self.kind = kind
                self.revision = revision
                self.etag = etag
                self.notModified = notModified
                self.document = document
            }
        }
    }

    public enum CanOpenCheck: RPCMethodDescriptor {
        public static let name = "CanOpen.Check"
        public static let access = Access.public
        public static let traits = MethodTraits.read(from: .snapshot, costGrowsWithInput: true)
        public static func scope(_ _: Input) -> CallScope { .unscoped }
        public struct Input: Codable, Sendable {
            public var app: String
            public var platform: Platform
            public var version: Version
            public var url: String
            public init(app: String, platform: Platform, version: Version, url: String) {
                self.app = app
                self.platform = platform
                self.version = version
                self.url = url
            }
        }
        public typealias Output = Decision
    }

    public enum CanOpenGetTable: RPCMethodDescriptor {
        public static let name = "CanOpen.GetTable"
        public static let access = Access.public
        public static let traits = MethodTraits.read(from: .snapshot)
        public static func scope(_ _: Input) -> CallScope { .unscoped }
        public struct Input: Codable, Sendable {
            public var app: String
            public var platform: Platform
            public var version: Version
            public var ifNoneMatch: String?
            public init(app: String, platform: Platform, version: Version, ifNoneMatch: String? = nil) {
                self.app = app
                self.platform = platform
                self.version = version
                self.ifNoneMatch = ifNoneMatch
            }
        }
        public typealias Output = CanOpenTableAnswer
    }

    /// Every method the server serves, in the order `rpc.discover` lists them (besides `rpc.discover` itself).
    public static let all: [any RPCMethodDescriptor.Type] = [
        AppsCreate.self, AppsGet.self, AppsList.self, AppsUpdate.self, AppsDelete.self,
        DomainsCreate.self, DomainsGet.self, DomainsList.self, DomainsDelete.self,
        RoutesCreate.self, RoutesBatchCreate.self, RoutesGet.self, RoutesList.self, RoutesUpdate.self,
        RoutesDelete.self,
        RoutesReorder.self, RoutesSwitchOff.self, RoutesSwitchOn.self,
        ReleasesCreate.self, ReleasesPublish.self, ReleasesRetire.self, ReleasesGet.self, ReleasesList.self,
        AssociationsGet.self, AssociationsListRevisions.self, AssociationsDiff.self, AssociationsPreview.self,
        AssociationsWatch.self, AssociationsDelivery.self, CanOpenGetTable.self, CanOpenCheck.self, MatrixGet.self,
        TokensCreate.self, TokensList.self, TokensRevoke.self, TokensWhoAmI.self, AuditList.self,
        LinksCreate.self, LinksBatchCreate.self, LinksGet.self, LinksList.self, LinksUpdate.self, LinksDelete.self,
        LinksResolve.self, LinksStats.self, LinksQRCode.self,
        WebhooksCreate.self, WebhooksList.self, WebhooksDelete.self, WebhooksDeliveries.self,
        ManifestsPlan.self, ManifestsApply.self,
    ]
}
