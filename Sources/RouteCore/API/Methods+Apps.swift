/// The registry's methods, one descriptor each. See `Schema/registry.openrpc.json` for the wire contract.
public enum API {}

extension API {
    public enum AppsCreate: RPCMethodDescriptor {
        public static let name = "Apps.Create"
        public static let access = Access.admin
        public struct Input: Codable, Sendable {
            /// Idempotency key (AIP-155, `API.RequestID`): a retry with the same key, by the same caller, of the
            /// same method returns the first outcome instead of writing again.
            public var requestID: String?
            public var app: App
            public init(app: App, requestID: String? = nil) {
                self.app = app
                self.requestID = requestID
            }

            enum CodingKeys: String, CodingKey {
                case requestID = "requestId"
                case app
            }
        }
        public typealias Output = Resource<App>
    }

    public enum AppsGet: RPCMethodDescriptor {
        public static let name = "Apps.Get"
        public static let access = Access.reader
        public struct Input: Codable, Sendable {
            public var app: String
            public init(app: String) { self.app = app }
        }
        public typealias Output = Resource<App>
    }

    public enum AppsList: RPCMethodDescriptor, PageKey {
        public static let name = "Apps.List"
        public static let access = Access.reader
        public typealias Input = PageRequest
        public typealias Output = Page<AppsList, Resource<App>>
        public static let items = "apps"
    }

    public enum AppsUpdate: RPCMethodDescriptor {
        public static let name = "Apps.Update"
        public static let access = Access.admin
        public struct Input: Codable, Sendable {
            /// Idempotency key (AIP-155, `API.RequestID`): a retry with the same key, by the same caller, of the
            /// same method returns the first outcome instead of writing again.
            public var requestID: String?
            public var app: App
            public var etag: String?
            public init(app: App, etag: String? = nil, requestID: String? = nil) {
                self.requestID = requestID
                self.app = app
                self.etag = etag
            }

            enum CodingKeys: String, CodingKey {
                case requestID = "requestId"
                case app, etag
            }
        }
        public typealias Output = Resource<App>
    }

    public enum AppsDelete: RPCMethodDescriptor {
        public static let name = "Apps.Delete"
        public static let access = Access.admin
        public struct Input: Codable, Sendable {
            /// Idempotency key (AIP-155, `API.RequestID`): a retry with the same key, by the same caller, of the
            /// same method returns the first outcome instead of writing again.
            public var requestID: String?
            public var app: String
            public var etag: String?
            public init(app: String, etag: String? = nil, requestID: String? = nil) {
                self.requestID = requestID
                self.app = app
                self.etag = etag
            }

            enum CodingKeys: String, CodingKey {
                case requestID = "requestId"
                case app, etag
            }
        }
        public typealias Output = Empty
    }

    public enum DomainsCreate: RPCMethodDescriptor {
        public static let name = "Domains.Create"
        public static let access = Access.admin
        public struct Input: Codable, Sendable {
            /// Idempotency key (AIP-155, `API.RequestID`): a retry with the same key, by the same caller, of the
            /// same method returns the first outcome instead of writing again.
            public var requestID: String?
            public var domain: Domain
            public init(domain: Domain, requestID: String? = nil) {
                self.domain = domain
                self.requestID = requestID
            }

            enum CodingKeys: String, CodingKey {
                case requestID = "requestId"
                case domain
            }
        }
        public typealias Output = Resource<Domain>
    }

    public enum DomainsGet: RPCMethodDescriptor {
        public static let name = "Domains.Get"
        public static let access = Access.reader
        public struct Input: Codable, Sendable {
            public var host: String
            public init(host: String) { self.host = host }
        }
        public typealias Output = Resource<Domain>
    }

    public enum DomainsList: RPCMethodDescriptor, PageKey {
        public static let name = "Domains.List"
        public static let access = Access.reader
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
        public struct Input: Codable, Sendable {
            /// Idempotency key (AIP-155, `API.RequestID`): a retry with the same key, by the same caller, of the
            /// same method returns the first outcome instead of writing again.
            public var requestID: String?
            public var host: String
            public var etag: String?
            public init(host: String, etag: String? = nil, requestID: String? = nil) {
                self.requestID = requestID
                self.host = host
                self.etag = etag
            }

            enum CodingKeys: String, CodingKey {
                case requestID = "requestId"
                case host, etag
            }
        }
        public typealias Output = Empty
    }
}
