/// The links service: short links on the apps' link domains.
extension API {
    /// A link as the API shows it: the link, its app, its short URL, who made it, and its resource metadata.
    public struct LinkView: Codable, Sendable, Hashable {
        public var link: ShortLink
        public var app: String
        /// `https://{domain}/{code}`.
        public var shortUrl: String
        /// The token id that created it.
        public var createdBy: String
        public var meta: ResourceMeta

        public init(link: ShortLink, app: String, shortUrl: String, createdBy: String, meta: ResourceMeta) {
            self.link = link
            self.app = app
            self.shortUrl = shortUrl
            self.createdBy = createdBy
            self.meta = meta
        }

        enum Keys: String, CodingKey { case app, shortUrl, createdBy }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            link = try ShortLink(from: decoder)
            meta = try ResourceMeta(from: decoder)
            app = try c.decode(String.self, forKey: .app)
            shortUrl = try c.decode(String.self, forKey: .shortUrl)
            createdBy = try c.decode(String.self, forKey: .createdBy)
        }

        /// Flat, as resources are: the link's fields, `app`, `shortUrl`, `createdBy`, then the metadata.
        public func encode(to encoder: any Encoder) throws {
            try link.encode(to: encoder)
            try meta.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(app, forKey: .app)
            try c.encode(shortUrl, forKey: .shortUrl)
            try c.encode(createdBy, forKey: .createdBy)
        }
    }

    public enum LinksCreate: RPCMethodDescriptor {
        public static let name = "Links.Create"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: false)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public struct Params: Codable, Sendable {
            public var app: String
            public var link: ShortLink
            public init(app: String, link: ShortLink) {
                self.app = app
                self.link = link
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = LinkView
    }

    public enum LinksBatchCreate: RPCMethodDescriptor {
        public static let name = "Links.BatchCreate"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: false)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        /// Links per call: one transaction, one audit entry.
        public static let maxLinks = 1000
        public struct Params: Codable, Sendable {
            public var app: String
            public var links: [ShortLink]
            public init(app: String, links: [ShortLink]) {
                self.app = app
                self.links = links
            }
        }
        public typealias Input = WriteRequest<Params>
        public struct Output: Codable, Sendable {
            /// The created links, in the order given.
            public var links: [LinkView]
            public init(links: [LinkView]) { self.links = links }
        }
    }

    /// Which link: its domain and code (the params of the methods that read one).
    public struct LinkRef: Codable, Sendable, Hashable {
        public var domain: String
        public var code: String
        public init(domain: String, code: String) {
            self.domain = domain
            self.code = code
        }
    }

    public enum LinksGet: RPCMethodDescriptor {
        public static let name = "Links.Get"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .link(domain: input.domain, code: input.code) }
        public typealias Input = LinkRef
        public typealias Output = LinkView
    }

    public enum LinksList: RPCMethodDescriptor, PageKey {
        public static let name = "Links.List"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .list(app: input.filter.app) }
        public struct Filter: Codable, Sendable, Hashable {
            /// Only this app's links.
            public var app: String?
            /// Only links whose code or target contains this text (case-insensitive).
            public var text: String?
            /// Only links carrying this tag.
            public var tag: String?
            /// Only links whose campaign (`utm.campaign`) is this.
            public var campaign: String?
            public init(app: String? = nil, text: String? = nil, tag: String? = nil, campaign: String? = nil) {
                self.app = app
                self.text = text
                self.tag = tag
                self.campaign = campaign
            }
        }
        public typealias Input = ListRequest<Filter>
        public typealias Output = Page<LinksList, LinkView>
        public static let items = "links"
    }

    public enum LinksUpdate: RPCMethodDescriptor {
        public static let name = "Links.Update"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: false)
        public static func scope(_ input: Input) -> CallScope {
            .link(domain: input.link.domain, code: input.link.code)
        }
        public struct Params: Codable, Sendable {
            /// The link as it should be; `domain` and `code` name it and cannot change.
            public var link: ShortLink
            public var etag: String?
            public init(link: ShortLink, etag: String? = nil) {
                self.link = link
                self.etag = etag
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = LinkView
    }

    public enum LinksDelete: RPCMethodDescriptor {
        public static let name = "Links.Delete"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: false)
        public static func scope(_ input: Input) -> CallScope { .link(domain: input.domain, code: input.code) }
        public struct Params: Codable, Sendable {
            public var domain: String
            public var code: String
            public var etag: String?
            public init(domain: String, code: String, etag: String? = nil) {
                self.domain = domain
                self.code = code
                self.etag = etag
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = Empty
    }

    public enum LinksResolve: RPCMethodDescriptor {
        public static let name = "Links.Resolve"
        public static let access = Access.public
        public static let traits = MethodTraits.read(from: .snapshot)
        public static func scope(_ _: Input) -> CallScope { .unscoped }
        public struct Input: Codable, Sendable {
            /// The short URL (`https://go.badoo.com/summer`).
            public var url: String
            public var platform: Platform
            public var version: Version
            public init(url: String, platform: Platform, version: Version) {
                self.url = url
                self.platform = platform
                self.version = version
            }
        }
        public struct Output: Codable, Sendable, Hashable {
            /// The deep link the short link opens.
            public var target: String
            /// The app the link belongs to.
            public var app: String
            /// The route that decides the target, if one does.
            public var route: String?
            /// The lowest version that opens it: the later of the route's `since` and the link's own.
            public var minVersion: String?
            /// Where `minVersion` comes from: `route` or `link`.
            public var minVersionSource: String?
            /// What `CanOpen.Check` answers for the target and this version, the link's own minimum applied.
            public var decision: Decision
            public init(
                target: String, app: String, route: String?, minVersion: String?, minVersionSource: String?,
                decision: Decision
            ) {
                self.target = target
                self.app = app
                self.route = route
                self.minVersion = minVersion
                self.minVersionSource = minVersionSource
                self.decision = decision
            }
        }
    }

    public enum LinksStats: RPCMethodDescriptor {
        public static let name = "Links.Stats"
        public static let access = Access.reader
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .link(domain: input.domain, code: input.code) }
        public typealias Input = LinkRef
        public struct Count: Codable, Sendable, Hashable {
            /// `YYYY-MM-DD`, UTC.
            public var day: String
            /// `ios`, `android`, `desktop` or `crawler`.
            public var platform: String
            /// `crawler`, `landing`, `redirect` or `not_found`.
            public var outcome: String
            /// `link` (the short URL) or `qr` (a scan of its QR code); absent from older servers: `link`.
            public var source: String?
            /// `bot` (link-preview fetchers, search engines and monitors: the `crawler` platform) or `person`.
            public var visitor: String?
            public var count: Int
            public init(
                day: String, platform: String, outcome: String, source: String? = "link", count: Int
            ) {
                self.day = day
                self.platform = platform
                self.outcome = outcome
                self.source = source
                self.visitor = platform == "crawler" ? "bot" : "person"
                self.count = count
            }
        }
        /// Visits to the link's domain that found no link, on a day, by why.
        public struct Miss: Codable, Sendable, Hashable {
            /// `YYYY-MM-DD`, UTC.
            public var day: String
            /// `unknown`, `expired`, `deleted` (a code) or `refused` (a long link).
            public var outcome: String
            public var count: Int
            public init(day: String, outcome: String, count: Int) {
                self.day = day
                self.outcome = outcome
                self.count = count
            }
        }
        public struct Output: Codable, Sendable, Hashable {
            /// The link's resource name.
            public var name: String
            /// Newest day first.
            public var counts: [Count]
            public var total: Int
            /// Of `total`, the clicks of people and of bots (nil from older servers).
            public var people: Int?
            public var bots: Int?
            /// The link's domain's misses of the last `missDays` days, newest first (nil from older servers).
            public var domainMisses: [Miss]?
            public init(name: String, counts: [Count], domainMisses: [Miss]? = nil) {
                self.name = name
                self.counts = counts
                self.total = counts.reduce(0) { $0 + $1.count }
                self.bots = counts.filter { $0.visitor == "bot" }.reduce(0) { $0 + $1.count }
                self.people = total - (bots ?? 0)
                self.domainMisses = domainMisses
            }
        }
        /// How many days of the domain's misses `Output.domainMisses` holds (today included).
        public static let missDays = 30
    }
}
