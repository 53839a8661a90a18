extension API {
    public enum RoutesCreate: RPCMethodDescriptor {
        public static let name = "Routes.Create"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public struct Params: Codable, Sendable {
            public var app: String
            public var route: Route
            /// Insert before this route; last when absent.
            public var before: String?
            public init(app: String, route: Route, before: String? = nil) {
                self.app = app
                self.route = route
                self.before = before
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = RouteResource
    }

    /// Adds many routes in one transaction: all of them or none, one regeneration, one audit entry. For
    /// imports: separate creates would leave half an import behind on the first refusal, and regenerate
    /// every file once per route.
    public enum RoutesBatchCreate: RPCMethodDescriptor {
        public static let name = "Routes.BatchCreate"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        /// Routes per call: far above what one AASA can hold (Apple's 128 KB), low enough to keep a call's
        /// transaction short.
        public static let maxRoutes = 5000
        public struct Params: Codable, Sendable {
            public var app: String
            /// In evaluation order; they keep it.
            public var routes: [Route]
            /// Insert them all before this route; last when absent.
            public var before: String?
            public init(app: String, routes: [Route], before: String? = nil) {
                self.app = app
                self.routes = routes
                self.before = before
            }
        }
        public typealias Input = WriteRequest<Params>
        public struct Output: Codable, Sendable {
            /// The created routes, in the order given, with their positions.
            public var routes: [RouteResource]
            public init(routes: [RouteResource]) { self.routes = routes }
        }
    }

    public enum RoutesGet: RPCMethodDescriptor {
        public static let name = "Routes.Get"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        /// A read takes no etag: its own input, so the type says exactly what the document says.
        public struct Input: Codable, Sendable, Hashable {
            public var app: String
            public var route: String
            public init(app: String, route: String) {
                self.app = app
                self.route = route
            }
        }
        public typealias Output = RouteResource
    }

    public enum RoutesList: RPCMethodDescriptor, PageKey {
        public static let name = "Routes.List"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public typealias Input = ListRequest<Filter>
        public struct Filter: Codable, Sendable {
            public var app: String
            public init(app: String) { self.app = app }
        }
        public typealias Output = Page<RoutesList, RouteResource>
        public static let items = "routes"
    }

    public enum RoutesUpdate: RPCMethodDescriptor {
        public static let name = "Routes.Update"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public struct Params: Codable, Sendable {
            public var app: String
            public var route: Route
            public var etag: String?
            public init(app: String, route: Route, etag: String? = nil) {
                self.app = app
                self.route = route
                self.etag = etag
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = RouteResource
    }

    public enum RoutesDelete: RPCMethodDescriptor {
        public static let name = "Routes.Delete"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        /// Names one route of an app.
        public struct Params: Codable, Sendable, Hashable {
            public var app: String
            public var route: String
            public var etag: String?
            public init(app: String, route: String, etag: String? = nil) {
                self.app = app
                self.route = route
                self.etag = etag
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = Empty
    }

    public enum RoutesReorder: RPCMethodDescriptor {
        public static let name = "Routes.Reorder"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public struct Params: Codable, Sendable {
            public var app: String
            /// Every route ID of the app, in the new evaluation order.
            public var order: [String]
            public init(app: String, order: [String]) {
                self.app = app
                self.order = order
            }
        }
        public typealias Input = WriteRequest<Params>
        public struct Output: Codable, Sendable {
            public var routes: [RouteResource]
            public init(routes: [RouteResource]) { self.routes = routes }
        }
    }

    public enum RoutesSwitchOff: RPCMethodDescriptor {
        public static let name = "Routes.SwitchOff"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public struct Params: Codable, Sendable {
            public var app: String
            public var route: String
            public var platform: Platform
            public var versions: [Version]
            public var reason: String?
            public init(app: String, route: String, platform: Platform, versions: [Version], reason: String? = nil) {
                self.app = app
                self.route = route
                self.platform = platform
                self.versions = versions
                self.reason = reason
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = RouteResource
    }

    public enum RoutesSwitchOn: RPCMethodDescriptor {
        public static let name = "Routes.SwitchOn"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        /// `Routes.SwitchOff`'s params without the reason, which only a switch-off records.
        public struct Params: Codable, Sendable {
            public var app: String
            public var route: String
            public var platform: Platform
            public var versions: [Version]
            public init(app: String, route: String, platform: Platform, versions: [Version]) {
                self.app = app
                self.route = route
                self.platform = platform
                self.versions = versions
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = RouteResource
    }
}
