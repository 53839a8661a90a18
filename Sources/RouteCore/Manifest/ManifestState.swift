import RouteMatching

/// What the registry holds for one app, as read through the API: the app, its domains and its routes in
/// evaluation order. A plan is computed from it and records its fingerprint, so that applying a plan can
/// later refuse when the registry moved since it was reviewed.
public struct ManifestState: Sendable, Hashable {
    /// The app id the state was read for.
    public var appID: String
    /// The app; nil when the registry does not have it yet.
    public var app: Resource<App>?
    /// The domains that list the app.
    public var domains: [Resource<Domain>]
    /// The app's routes, in evaluation order.
    public var routes: [RouteResource]

    public init(appID: String, app: Resource<App>?, domains: [Resource<Domain>] = [], routes: [RouteResource] = []) {
        self.appID = appID
        self.app = app
        self.domains = domains.sorted { $0.value.host < $1.value.host }
        self.routes = routes.sorted { $0.position < $1.position }
    }

    /// A SHA-256 over every resource's name, etag and (for routes) position: any write to the app, its domains
    /// or its routes changes an etag or a position, so a different fingerprint means the registry moved.
    public var fingerprint: String {
        var text = "app \(appID) \(app?.meta.etag ?? "-")\n"
        for domain in domains { text += "domain \(domain.meta.name) \(domain.meta.etag)\n" }
        for route in routes { text += "route \(route.meta.name) \(route.meta.etag) \(route.position)\n" }
        return "sha256:" + SHA256.hex(Array(text.utf8))
    }
}

extension Manifest {
    /// Today's state as a manifest, so a team starts from what it has (`routereg export`). Nil when the
    /// registry does not have the app.
    public init?(exporting state: ManifestState) {
        guard let app = state.app?.value else { return nil }
        self.init(
            app: app, domains: state.domains.map { ManifestDomain($0.value) },
            routes: state.routes.map { ManifestRoute($0.route) })
    }
}
