/// The registry's methods, one descriptor each. See `Schema/registry.openrpc.json` for the wire contract.
public enum API {}

extension API {
    public enum AppsCreate: RPCMethodDescriptor {
        public static let name = "Apps.Create"
        public static let access = Access.admin
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app.id) }
        public struct Params: Codable, Sendable {
            public var app: App
            /// Lets the app hold names (iOS app IDs, the Android package, host patterns) another app holds.
            /// Only an admin token for every app may send it (`NameOwnership`).
            public var shareNames: Bool?
            public init(app: App, shareNames: Bool? = nil) {
                self.app = app
                self.shareNames = shareNames
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = Resource<App>
    }

    public enum AppsGet: RPCMethodDescriptor {
        public static let name = "Apps.Get"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public struct Input: Codable, Sendable {
            public var app: String
            public init(app: String) { self.app = app }
        }
        public typealias Output = Resource<App>
    }

    public enum AppsList: RPCMethodDescriptor, PageKey {
        public static let name = "Apps.List"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ _: Input) -> CallScope { .list(app: nil) }
        public typealias Input = PageRequest
        public typealias Output = Page<AppsList, Resource<App>>
        public static let items = "apps"
    }

    public enum AppsUpdate: RPCMethodDescriptor {
        public static let name = "Apps.Update"
        public static let access = Access.admin
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app.id) }
        public struct Params: Codable, Sendable {
            public var app: App
            public var etag: String?
            /// As `Apps.Create`'s: lets the app hold names another app holds.
            public var shareNames: Bool?
            public init(app: App, etag: String? = nil, shareNames: Bool? = nil) {
                self.app = app
                self.etag = etag
                self.shareNames = shareNames
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = Resource<App>
    }

    public enum AppsDelete: RPCMethodDescriptor {
        public static let name = "Apps.Delete"
        public static let access = Access.admin
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public struct Params: Codable, Sendable {
            public var app: String
            public var etag: String?
            public init(app: String, etag: String? = nil) {
                self.app = app
                self.etag = etag
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = Empty
    }

    public enum DomainsCreate: RPCMethodDescriptor {
        public static let name = "Domains.Create"
        public static let access = Access.admin
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope {
            .newDomain(apps: input.domain.apps, aliasOf: input.domain.aliasOf)
        }
        public struct Params: Codable, Sendable {
            public var domain: Domain
            public init(domain: Domain) { self.domain = domain }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = Resource<Domain>
    }

    public enum DomainsGet: RPCMethodDescriptor {
        public static let name = "Domains.Get"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .domain(input.host) }
        public struct Input: Codable, Sendable {
            public var host: String
            public init(host: String) { self.host = host }
        }
        public typealias Output = DomainDetail
    }

    public enum DomainsList: RPCMethodDescriptor, PageKey {
        public static let name = "Domains.List"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .list(app: input.filter.app) }
        public typealias Input = ListRequest<Filter>
        public struct Filter: Codable, Sendable {
            public var app: String?
            public init(app: String? = nil) { self.app = app }
        }
        public typealias Output = Page<DomainsList, Resource<Domain>>
        public static let items = "domains"
    }

    public enum DomainsDelete: RPCMethodDescriptor {
        public static let name = "Domains.Delete"
        public static let access = Access.admin
        public static let traits = MethodTraits.write(changesSnapshot: true)
        public static func scope(_ input: Input) -> CallScope { .domain(input.host) }
        public struct Params: Codable, Sendable {
            public var host: String
            public var etag: String?
            public init(host: String, etag: String? = nil) {
                self.host = host
                self.etag = etag
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = Empty
    }
}
