import RouteMatching

/// The public read methods an app calls, described on the client's side so that an app does not link the
/// server's API descriptors (RouteCore's `API`). `OpenRPCConformanceTests` holds their params to
/// `Schema/registry.openrpc.json`, and the tests decode the server's own results with them.
enum ReadMethods {
    /// The reads a call may repeat when its connection closed unanswered (`RPCClient.mayRepeat`): every
    /// public read of the registry, whether or not this client describes it.
    static let names: Set<String> = [
        "CanOpen.Check", "CanOpen.GetTable", "Links.Resolve", "Associations.Get", "Associations.Watch",
        "rpc.discover",
    ]

    /// `CanOpen.GetTable`.
    enum CanOpenGetTable: RPCMethodSignature {
        static let name = "CanOpen.GetTable"
        struct Input: Codable, Sendable {
            var app: String
            var platform: Platform
            var version: Version
            var ifNoneMatch: String?
        }
        typealias Output = CanOpenTableAnswer
    }

    /// `CanOpen.Check`.
    enum CanOpenCheck: RPCMethodSignature {
        static let name = "CanOpen.Check"
        struct Input: Codable, Sendable {
            var app: String
            var platform: Platform
            var version: Version
            var url: String
        }
        typealias Output = Decision
    }
}
