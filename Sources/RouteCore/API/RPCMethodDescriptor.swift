/// Who may call a method. Roles are ordered: an `admin` may do what a `releaser` may, who may do what a
/// `reader` may; `public` methods need no token at all.
public enum Access: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    case `public`
    case reader
    case releaser
    case admin

    private var rank: Int {
        switch self {
        case .public: 0
        case .reader: 1
        case .releaser: 2
        case .admin: 3
        }
    }

    public static func < (lhs: Access, rhs: Access) -> Bool { lhs.rank < rhs.rank }
}

/// One method of the registry's JSON-RPC API, described once: its wire name, who may call it, and the
/// shapes of its params and result (`RPCMethodSignature`). The server's dispatcher is built from these descriptors,
/// the Swift client calls them through `RPCMethodSignature`, and a test proves they agree with
/// `Schema/registry.openrpc.json`.
public protocol RPCMethodDescriptor: RPCMethodSignature {
    /// The weakest role allowed to call it.
    static var access: Access { get }
    /// What kind of method it is (read or write, where it reads, whether it changes the snapshot): declared
    /// here with no default, so everything derived from it (`MethodTraits`) cannot miss a new method.
    static var traits: MethodTraits { get }
    /// What a call reaches, which a scoped token's apps must cover: declared here, once per method, and
    /// checked before its handler runs (no default, so a new method cannot forget it).
    static func scope(_ input: Input) -> CallScope
}

/// An empty params object or result (`{}`).
public struct Empty: Codable, Sendable, Hashable {
    public init() {}
}

/// Paging params shared by list methods.
public struct PageRequest: Codable, Sendable, Hashable {
    /// The page size when `pageSize` is absent.
    public static let defaultSize = 50

    /// At most this many items: 1 to 1000, `defaultSize` when absent (the schema's `PageSize` checks it).
    public var pageSize: Int?
    /// The `nextPageToken` of the previous page.
    public var pageToken: String?

    public init(pageSize: Int? = nil, pageToken: String? = nil) {
        self.pageSize = pageSize
        self.pageToken = pageToken
    }
}
