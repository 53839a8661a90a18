import Foundation
import RouteMatching

/// What `Links.Resolve` answers for a short URL (`https://go.badoo.com/summer`) and one app version: the deep
/// link it opens, the route deciding that target, the effective minimum version and why, and the registry's
/// decision for that version.
public struct ShortLinkResolution: Sendable, Hashable, Codable {
    /// The deep link the short link opens (`https://m.badoo.com/u/42`).
    public var target: String
    /// The app the link belongs to.
    public var app: String
    /// The route deciding the target, if one does.
    public var route: String?
    /// The lowest version that opens it: the later of the route's `since` and the link's own minimum.
    public var minVersion: String?
    /// Where `minVersion` comes from: `route` or `link`.
    public var minVersionSource: String?
    /// `CanOpen.Check`'s answer for the target and the asking version, the link's own minimum applied.
    public var decision: Decision

    public init(
        target: String, app: String, route: String? = nil, minVersion: String? = nil,
        minVersionSource: String? = nil, decision: Decision
    ) {
        self.target = target
        self.app = app
        self.route = route
        self.minVersion = minVersion
        self.minVersionSource = minVersionSource
        self.decision = decision
    }

    /// The link's own minimum version, when it is the one in force (above the route's `since`): the part of
    /// the answer a canOpen table does not hold, applied on top of the table's decision for the target.
    public var linkMinimum: Version? {
        guard minVersionSource == "link" else { return nil }
        return minVersion.flatMap { try? Version($0) }
    }
}

extension ReadMethods {
    /// `Links.Resolve`.
    enum LinksResolve: RPCMethodSignature {
        static let name = "Links.Resolve"
        struct Input: Codable, Sendable {
            var url: String
            var platform: Platform
            var version: Version
        }
        typealias Output = ShortLinkResolution
    }
}

extension RPCClient {
    /// Resolves a short URL for one app version (`Links.Resolve`, public): NOT_FOUND (a `RegistryError`) for a
    /// code that does not exist, expired or was deleted.
    public func resolveLink(
        url: String, platform: Platform, version: Version, timeout: TimeInterval? = nil
    ) async throws -> ShortLinkResolution {
        try await call(
            ReadMethods.LinksResolve.self, .init(url: url, platform: platform, version: version), timeout: timeout)
    }
}
