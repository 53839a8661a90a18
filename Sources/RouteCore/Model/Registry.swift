/// Everything the generators and decisions read: a consistent, immutable view of the registry.
/// The service builds one from the store after every change; RouteCore computes from it alone.
public struct Registry: Sendable, Hashable, Codable {
    public var apps: [App]
    public var domains: [Domain]
    /// Routes per app ID, in evaluation order.
    public var routes: [String: [Route]]
    public var releases: [Release]

    public init(apps: [App] = [], domains: [Domain] = [], routes: [String: [Route]] = [:], releases: [Release] = []) {
        self.apps = apps
        self.domains = domains
        self.routes = routes
        self.releases = releases
    }

    /// The live versions of `app` on `platform`, ascending.
    public func liveVersions(app: String, platform: Platform) -> [Version] {
        releases.filter { $0.app == app && $0.platform == platform && $0.state == .live }.map(\.version).sorted()
    }
}
