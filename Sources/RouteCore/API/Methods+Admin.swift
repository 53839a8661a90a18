extension API {
    public enum TokensCreate: RPCMethodDescriptor {
        public static let name = "Tokens.Create"
        public static let access = Access.admin
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .newToken(apps: input.token.apps) }
        public struct NewToken: Codable, Sendable {
            public var displayName: String
            public var role: Access
            /// The apps it may act on (at least one); absent: every app.
            public var apps: [String]?
            /// When it stops working (RFC 3339); absent: never.
            public var expiresAt: String?
            public init(displayName: String, role: Access, apps: [String]? = nil, expiresAt: String? = nil) {
                self.displayName = displayName
                self.role = role
                self.apps = apps
                self.expiresAt = expiresAt
            }
        }
        /// No `requestId`: replaying the first outcome would mean storing the token's secret, which the server
        /// never keeps (only its SHA-256). A retried create makes a second token; revoke the unused one.
        public struct Input: Codable, Sendable {
            public var token: NewToken
            public init(token: NewToken) { self.token = token }
        }
        public struct Output: Codable, Sendable {
            public var token: TokenResource
            /// The bearer secret: shown once, stored only as a hash.
            public var secret: String
            public init(token: TokenResource, secret: String) {
                self.token = token
                self.secret = secret
            }
        }
    }

    public enum TokensList: RPCMethodDescriptor, PageKey {
        public static let name = "Tokens.List"
        public static let access = Access.admin
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ _: Input) -> CallScope { .list(app: nil) }
        public typealias Input = PageRequest
        public typealias Output = Page<TokensList, TokenResource>
        public static let items = "tokens"
    }

    public enum TokensRevoke: RPCMethodDescriptor {
        public static let name = "Tokens.Revoke"
        public static let access = Access.admin
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .token(input.id) }
        public struct Params: Codable, Sendable {
            public var id: String
            public init(id: String) { self.id = id }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = TokenResource
    }

    /// Who the bearer token is: what a console needs to hide what the caller's role may not do.
    public enum TokensWhoAmI: RPCMethodDescriptor {
        public static let name = "Tokens.WhoAmI"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .snapshot)
        public static func scope(_ _: Input) -> CallScope { .unscoped }
        public typealias Input = Empty
        public struct Output: Codable, Sendable, Hashable {
            /// `tokens/{id}`.
            public var name: String
            /// The token's id, the actor the audit log records (`bootstrap-admin` for the seeded token).
            public var id: String
            public var role: Access
            /// The apps the token may act on; absent: every app.
            public var apps: [String]?
            /// When the token stops working; absent: never.
            public var expiresAt: String?
            public init(id: String, role: Access, apps: [String]? = nil, expiresAt: String? = nil) {
                self.name = ResourceName.token(id).description
                self.id = id
                self.role = role
                self.apps = apps
                self.expiresAt = expiresAt
            }
        }
    }

    public enum AuditList: RPCMethodDescriptor, PageKey {
        public static let name = "Audit.List"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ _: Input) -> CallScope { .list(app: nil) }
        public typealias Input = ListRequest<Filter>
        public struct Filter: Codable, Sendable {
            public var resource: String?
            public init(resource: String? = nil) { self.resource = resource }
        }
        public typealias Output = Page<AuditList, AuditEntry>
        public static let items = "entries"
    }

    public enum MatrixGet: RPCMethodDescriptor {
        public static let name = "Matrix.Get"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .snapshot)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public struct Input: Codable, Sendable {
            public var app: String
            public var platform: Platform
            public init(app: String, platform: Platform) {
                self.app = app
                self.platform = platform
            }
        }
        /// One cell: what `version` does with the route's links.
        public struct Cell: Codable, Sendable, Hashable {
            public enum State: String, Codable, Sendable { case open, fallback, switchedOff = "switched_off", excluded }
            public var version: Version
            public var state: State
            public init(version: Version, state: State) {
                self.version = version
                self.state = state
            }
        }
        public struct Row: Codable, Sendable, Hashable {
            public var route: String
            public var pattern: URLPattern
            public var action: RouteAction
            public var supportedSince: Version?
            public var cells: [Cell]
            public init(
                route: String, pattern: URLPattern, action: RouteAction, supportedSince: Version?, cells: [Cell]
            ) {
                self.route = route
                self.pattern = pattern
                self.action = action
                self.supportedSince = supportedSince
                self.cells = cells
            }
        }
        public struct Output: Codable, Sendable {
            public var app: String
            public var platform: Platform
            /// The live versions, ascending: the columns.
            public var versions: [Version]
            public var routes: [Row]
            public init(app: String, platform: Platform, versions: [Version], routes: [Row]) {
                self.app = app
                self.platform = platform
                self.versions = versions
                self.routes = routes
            }
        }
    }
}
