/// The name of a resource (or collection) of the API, AIP-122 style: `apps/badoo/routes/profile`.
///
/// Names are printed and parsed here only, in the spirit of swift-url-routing: one description both ways,
/// so the store's errors, the service's resource metadata and audit entries, and the CLI's messages cannot
/// drift apart. The printed text is the wire format (`name` fields, audit `resource`, error messages).
public enum ResourceName: Sendable, Hashable, CustomStringConvertible {
    /// `apps/{app}`.
    case app(String)
    /// `apps/{app}/routes`: the collection a batch create or a reorder writes as a whole.
    case routes(app: String)
    /// `apps/{app}/routes/{route}`.
    case route(app: String, id: String)
    /// `apps/{app}/platforms/{platform}/releases/{version}`, the version spelled `Version.canonical`.
    case release(app: String, platform: Platform, version: Version)
    /// `domains/{host}`.
    case domain(String)
    /// `domains/{host}/revisions`: the generated documents of a host.
    case revisions(host: String)
    /// `domains/{host}/revisions/{number}`.
    case revision(host: String, number: Int)
    /// `tokens/{id}`.
    case token(String)
    /// `domains/{host}/links`: the short links of a link domain.
    case links(host: String)
    /// `domains/{host}/links/{code}`.
    case link(String, String)
    /// `apps/{app}/webhooks/{id}`.
    case webhook(app: String, id: String)

    /// The name as the API spells it.
    public var description: String {
        switch self {
        case .app(let app): "apps/\(app)"
        case .routes(let app): "\(ResourceName.app(app))/routes"
        case .route(let app, let id): "\(ResourceName.routes(app: app))/\(id)"
        case .release(let app, let platform, let version):
            "\(ResourceName.app(app))/platforms/\(platform.rawValue)/releases/\(version.canonical)"
        case .domain(let host): "domains/\(host)"
        case .revisions(let host): "\(ResourceName.domain(host))/revisions"
        case .revision(let host, let number): "\(ResourceName.revisions(host: host))/\(number)"
        case .token(let id): "tokens/\(id)"
        case .links(let host): "\(ResourceName.domain(host))/links"
        case .link(let host, let code): "\(ResourceName.links(host: host))/\(code)"
        case .webhook(let app, let id): "\(ResourceName.app(app))/webhooks/\(id)"
        }
    }

    /// Parses a name the API prints; nil for anything else (an unknown collection, an empty or extra
    /// segment, an unknown platform, a version that does not parse, a revision number that is not a
    /// positive integer spelled plainly).
    public init?(_ name: String) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        switch (parts[0], parts.count) {
        case ("apps", 2): self = .app(parts[1])
        case ("apps", 3) where parts[2] == "routes": self = .routes(app: parts[1])
        case ("apps", 4) where parts[2] == "routes": self = .route(app: parts[1], id: parts[3])
        case ("apps", 4) where parts[2] == "webhooks": self = .webhook(app: parts[1], id: parts[3])
        case ("apps", 6) where parts[2] == "platforms" && parts[4] == "releases":
            guard let platform = Platform(rawValue: parts[3]), let version = try? Version(parts[5]) else { return nil }
            self = .release(app: parts[1], platform: platform, version: version)
        case ("domains", 2): self = .domain(parts[1])
        case ("domains", 3) where parts[2] == "revisions": self = .revisions(host: parts[1])
        case ("domains", 4) where parts[2] == "revisions":
            guard let number = Int(parts[3]), number >= 1, String(number) == parts[3] else { return nil }
            self = .revision(host: parts[1], number: number)
        case ("tokens", 2): self = .token(parts[1])
        case ("domains", 3) where parts[2] == "links": self = .links(host: parts[1])
        case ("domains", 4) where parts[2] == "links": self = .link(parts[1], parts[3])
        default: return nil
        }
    }

    /// `filter` (a resource name or the start of one, as `Audit.List` takes it) with the version of a
    /// release it names spelled canonically (`apps/a/platforms/ios/releases/5.12` → `…/releases/5.12.0`),
    /// since audit entries are stored under canonical names; any other filter is returned as it is.
    public static func canonical(filter: String) -> String {
        let parts = filter.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 6, let release = ResourceName(parts.prefix(6).joined(separator: "/")),
            case .release = release
        else { return filter }
        return ([release.description] + parts.dropFirst(6).map(String.init)).joined(separator: "/")
    }
}
