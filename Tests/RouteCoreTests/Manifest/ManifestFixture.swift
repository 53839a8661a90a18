import RouteCore

/// A small app as the registry would hold it, and the same as a manifest, for the manifest suites.
enum ManifestFixture {
    static let app = App(id: "badoo", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"]))
    static let domain = Domain(host: "m.badoo.com", apps: ["badoo"])

    static func route(_ id: String, _ path: String, ios: String? = nil) -> Route {
        Route(
            id: id, pattern: URLPattern(path: path),
            platforms: ios.map { [.ios: VersionRange(since: try! Version($0))] } ?? [:])
    }

    static let routes = [
        route("profile", "/u/*", ios: "5.0"), route("search", "/s/*", ios: "5.0"), route("old", "/o/*"),
    ]

    static func meta(_ name: String, _ etag: String = "e1") -> ResourceMeta {
        ResourceMeta(name: name, etag: etag, createTime: "2026-12-01T00:00:00Z")
    }

    /// The registry state holding `routes` (in that order); those of `managed` (every one when nil) managed by
    /// a manifest.
    static func state(routes: [Route] = routes, appEtag: String = "e1", managed: Set<String>? = nil) -> ManifestState {
        ManifestState(
            appID: "badoo", app: Resource(app, meta: meta("apps/badoo", appEtag)),
            domains: [Resource(domain, meta: meta("domains/m.badoo.com"))],
            routes: routes.enumerated().map { index, route in
                RouteResource(
                    route: route, app: "badoo", position: index, meta: meta("apps/badoo/routes/\(route.id)"),
                    managedBy: managed.map { $0.contains(route.id) } ?? true
                        ? RouteManagement(source: "abc123", applyTime: "2026-12-01T00:00:00Z") : nil)
            })
    }
}
