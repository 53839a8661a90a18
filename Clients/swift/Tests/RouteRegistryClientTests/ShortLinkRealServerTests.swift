import Foundation
import RegistryTesting
import RouteCore
import RouteRegistryClient
import Testing

/// Short links end to end: the real server, PostgreSQL, `Links.Resolve`, and `CanOpenStore.open(_:from:)`
/// deciding each link's target per version, from every entry point, and after the registry is gone.
@Suite("Short links against the real server")
struct ShortLinkRealServerTests {
    static let short = "https://go.badoo.com/"

    /// Badoo with `profile` (5.0), `lookalikes` (5.12.0), the link domain `go.badoo.com` resolved from 5.11.0
    /// on, and three links: a profile, lookalikes, and a profile asking 5.13.0 itself.
    static func makeRegistry(_ server: TestRegistryServer) async throws {
        let admin = RPCClient(server: server.baseURL, token: TestRegistryServer.adminToken)
        _ = try await admin.call(
            API.AppsCreate.self,
            WriteRequest(
                .init(
                    app: App(
                        id: "badoo", displayName: "Badoo", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"]),
                        schemes: ["badoo"]))))
        _ = try await admin.call(
            API.DomainsCreate.self, WriteRequest(.init(domain: Domain(host: "m.badoo.com", apps: ["badoo"]))))
        _ = try await admin.call(
            API.DomainsCreate.self,
            WriteRequest(.init(domain: Domain(host: "go.badoo.com", apps: ["badoo"], links: true))))
        let routes = [
            Route(
                id: "links-go-badoo-com", pattern: URLPattern(path: "/*"),
                platforms: [.ios: VersionRange(since: BadooFixture.version("5.11.0"))], domains: ["go.badoo.com"]),
            Route(
                id: "profile", pattern: URLPattern(path: "/u/*"),
                platforms: [.ios: VersionRange(since: BadooFixture.version("5.0"))]),
            Route(
                id: "lookalikes", pattern: URLPattern(path: "/l/a/*"),
                platforms: [.ios: VersionRange(since: BadooFixture.version("5.12.0"))]),
        ]
        for route in routes {
            _ = try await admin.call(API.RoutesCreate.self, WriteRequest(.init(app: "badoo", route: route)))
        }
        for version in ["5.11.0", "5.12.0"] {
            _ = try await admin.call(
                API.ReleasesPublish.self,
                WriteRequest(ReleaseKey(app: "badoo", platform: .ios, version: BadooFixture.version(version))))
        }
        let links = [
            ShortLink(domain: "go.badoo.com", code: "profile42", target: "https://m.badoo.com/u/42"),
            ShortLink(domain: "go.badoo.com", code: "lookalikes", target: "https://m.badoo.com/l/a/42"),
            ShortLink(
                domain: "go.badoo.com", code: "newer", target: "https://m.badoo.com/u/7",
                ios: LinkPlatformOptions(minVersion: "5.13.0")),
        ]
        let created = try await admin.call(
            API.LinksBatchCreate.self, WriteRequest(.init(app: "badoo", links: links), requestID: "swift-links-1"))
        #expect(created.links.map(\.shortUrl) == links.map { short + $0.code })
    }

    /// A store whose short-link deadline a loaded build machine cannot miss (ShortLinkDeadlineTests tests it).
    static func store(_ server: URL, _ version: String, caches: URL) -> CanOpenStore {
        CanOpenStore(
            client: RPCClient(server: server, timeout: 60), app: "badoo", version: BadooFixture.version(version),
            cachesDirectory: caches, shortLinkTimeout: 20)
    }

    @Test func aShortLinkIsResolvedDecidedPerVersionAndFallsBackOffline() async throws {
        let server = try TestRegistryServer(suite: "swift-client-links")
        defer { server.shutdown() }
        let caches = try BadooFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: caches) }
        try await Self.makeRegistry(server)
        let store511 = Self.store(server.baseURL, "5.11.0", caches: caches.appendingPathComponent("511"))
        let store512 = Self.store(server.baseURL, "5.12.0", caches: caches.appendingPathComponent("512"))
        #expect(try await store511.refresh() == .updated)
        #expect(try await store512.refresh() == .updated)
        // The table says which hosts are link domains (the scope marked `links`).
        #expect(store512.linkDomains == ["go.badoo.com"])
        #expect(store512.table?.domains.first { $0.name == "m.badoo.com" }?.links == nil)

        // 5.11.0 resolves short links, but the target's route starts at 5.12.0: the update, and the web.
        let lookalikes = URL(string: Self.short + "lookalikes")!
        let old = await store511.open(lookalikes, from: .universalLink)
        #expect(old.resolution == .server)
        #expect(
            old.decision
                == Decision(
                    decision: .openInBrowser, reason: .unsupportedVersion, route: "lookalikes",
                    fallbackUrl: "https://m.badoo.com/l/a/42?ul_fallback=1", supportedSince: "5.12.0"))
        #expect(old.supportedSince == "5.12.0")
        #expect(old.route == .openInBrowser(URL(string: "https://m.badoo.com/l/a/42?ul_fallback=1")!))
        #expect(old.shortLink?.decision == old.decision, "the local decision is the registry's")

        // 5.12.0 opens the target in the app, and the router is told the route's ID.
        let new = await store512.open(lookalikes, from: .universalLink)
        #expect(new.decision == Decision(decision: .openInApp, reason: .route, route: "lookalikes"))
        #expect(new.route == .openInApp(route: "lookalikes", url: URL(string: "https://m.badoo.com/l/a/42")!))
        #expect(new.shortLink?.minVersion == "5.12.0")
        #expect(new.shortLink?.minVersionSource == "route")

        // The link's own minimum (5.13.0) above its route's (5.0): 5.12.0 is told to update to 5.13.0.
        let newer = await store512.open(URL(string: Self.short + "newer")!, from: .notification)
        #expect(newer.decision.reason == .unsupportedVersion)
        #expect(newer.supportedSince == "5.13.0")
        #expect(newer.decision.route == "profile")
        #expect(newer.route == .openInBrowser(URL(string: "https://m.badoo.com/u/7?ul_fallback=1")!))
        #expect(newer.shortLink?.decision == newer.decision)

        // An unknown code: the browser shows the registry's page (the marker keeps iOS from sending it back).
        let unknown = await store512.open(URL(string: Self.short + "nothing-here")!, from: .universalLink)
        #expect(unknown.resolution == .notFound)
        #expect(unknown.route == .openInBrowser(URL(string: Self.short + "nothing-here?ul_fallback=1")!))

        // A version before the link domain's route does not resolve: its table sends it to the landing page.
        let v510 = Self.store(server.baseURL, "5.10.0", caches: caches.appendingPathComponent("510"))
        #expect(try await v510.refresh() == .updated)
        let tooOld = await v510.open(lookalikes, from: .universalLink)
        #expect(tooOld.resolution == nil)
        #expect(tooOld.decision.reason == .unsupportedVersion)
        #expect(tooOld.decision.route == "links-go-badoo-com")
        #expect(tooOld.route == .openInBrowser(URL(string: Self.short + "lookalikes?ul_fallback=1")!))

        // Offline: a resolution made before answers from disk (a new process); another link opens in the
        // browser with the marker, where the landing page takes over.
        server.stop()
        let relaunched = Self.store(server.baseURL, "5.12.0", caches: caches.appendingPathComponent("512"))
        #expect(relaunched.status.source == .disk)
        let again = await relaunched.open(lookalikes, from: .widget)
        #expect(again.resolution == .cache)
        #expect(again.route == new.route)
        #expect(relaunched.route(lookalikes) == new.route, "route(_:) uses the cached resolution")
        let started = Date()
        let offline = await relaunched.open(URL(string: Self.short + "profile42")!, from: .universalLink)
        #expect(Date().timeIntervalSince(started) < 25, "refused at once, or cut by the 20 s deadline")
        #expect(offline.resolution == .unavailable)
        #expect(offline.route == .openInBrowser(URL(string: Self.short + "profile42?ul_fallback=1")!))
    }

    @Test func everyEntryPointReachesTheSameDecision() async throws {
        let server = try TestRegistryServer(suite: "swift-client-entry-points")
        defer { server.shutdown() }
        let caches = try BadooFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: caches) }
        try await Self.makeRegistry(server)
        for (version, expected) in [
            ("5.11.0", LinkRoute.openInBrowser(URL(string: "https://m.badoo.com/l/a/42?ul_fallback=1")!)),
            ("5.12.0", LinkRoute.openInApp(route: "lookalikes", url: URL(string: "https://m.badoo.com/l/a/42")!)),
        ] {
            let store = Self.store(server.baseURL, version, caches: caches.appendingPathComponent(version))
            _ = try await store.refresh()
            let app = EntryPointWiring(store: store)
            for link in [Self.short + "lookalikes", "https://m.badoo.com/l/a/42"] {
                let outcomes = await app.deliverFromEverySource(link)
                #expect(outcomes.count == LinkSource.allCases.count)
                for (source, opening) in outcomes {
                    #expect(opening.route == expected, "\(link) from \(source) for \(version)")
                    #expect(opening.source == source)
                }
                #expect(Set(outcomes.map(\.1.decision)).count == 1, "one decision for \(link) for \(version)")
            }
            let routed = app.routed.withLock { $0 }
            if case .openInApp = expected {
                #expect(routed.count == 2 * LinkSource.allCases.count)
                #expect(Set(routed) == ["lookalikes https://m.badoo.com/l/a/42"])
            } else {
                #expect(routed.isEmpty)
            }
        }
    }
}
