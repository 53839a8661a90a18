import Foundation
import RegistryTesting
import RouteCore
import RouteRegistryClient
import Testing

/// ARCHITECTURE.md "The reference scenario" via the typed client, the real server and PostgreSQL, ending with what
/// the app cares about: `CanOpenStore` keeps answering, identically, after the registry is gone.
@Suite("RouteRegistryClient against the real server")
struct RealServerScenarioTests {
    /// Links whose decisions the store and `CanOpen.Check` must agree on.
    static let urls = BadooFixture.urls.filter { $0 != "not a url" }

    @Test func canOpenStoreFollowsTheScenarioAndAnswersAfterTheServerStops() async throws {
        let server = try TestRegistryServer(suite: "swift-client")
        defer { server.shutdown() }
        let caches = try BadooFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: caches) }
        let admin = RPCClient(server: server.baseURL, token: TestRegistryServer.adminToken)
        let anonymous = RPCClient(server: server.baseURL)
        let v511 = try Version("5.11.0")
        let v512 = try Version("5.12.0")

        // 1-5: app, domains, profile + help, publish 5.11.0, lookalikes + offer, publish 5.12.0.
        let app = try await admin.call(
            API.AppsCreate.self,
            WriteRequest(
                .init(
                    app: App(
                        id: "badoo", displayName: "Badoo", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"]),
                        schemes: ["badoo"]))))
        #expect(app.meta.name == "apps/badoo")
        for host in ["badoo.com", "m.badoo.com"] {
            _ = try await admin.call(
                API.DomainsCreate.self, WriteRequest(.init(domain: Domain(host: host, apps: ["badoo"]))))
        }
        let routes = try #require(BadooFixture.registry().routes["badoo"])
        for id in ["profile", "help", "lookalikes", "offer"] {
            let route = try #require(routes.first { $0.id == id })
            _ = try await admin.call(
                API.RoutesCreate.self,
                WriteRequest(.init(app: "badoo", route: route, before: id == "help" ? "profile" : nil)))
            if id == "help" {
                let published = try await admin.call(
                    API.ReleasesPublish.self, WriteRequest(ReleaseKey(app: "badoo", platform: .ios, version: v511)))
                #expect(published.release.state == .live)
            }
        }
        _ = try await admin.call(
            API.ReleasesPublish.self, WriteRequest(ReleaseKey(app: "badoo", platform: .ios, version: v512)))

        let store511 = CanOpenStore(
            client: anonymous, app: "badoo", version: v511, cachesDirectory: caches, refreshInterval: 3600)
        let store512 = CanOpenStore(
            client: anonymous, app: "badoo", version: v512, cachesDirectory: caches, refreshInterval: 3600)
        #expect(try await store511.refresh() == .updated)
        #expect(try await store512.refresh() == .updated)
        let lookalike = URL(string: "https://m.badoo.com/l/a/42")!
        #expect(
            store511.decide(lookalike)
                == Decision(
                    decision: .openInBrowser, reason: .unsupportedVersion, route: "lookalikes",
                    fallbackUrl: "https://m.badoo.com/l/a/42?ul_fallback=1", supportedSince: "5.12.0"))
        #expect(store512.decide(lookalike) == Decision(decision: .openInApp, reason: .route, route: "lookalikes"))
        try await expectSameAsServer(store511, anonymous)
        try await expectSameAsServer(store512, anonymous)

        // 6: lookalikes switched off for 5.12.0. Only 5.12.0's table changes.
        _ = try await admin.call(
            API.RoutesSwitchOff.self,
            WriteRequest(
                .init(app: "badoo", route: "lookalikes", platform: .ios, versions: [v512], reason: "crash in 5.12.0")))
        #expect(try await store512.refresh() == .updated)
        #expect(try await store511.refresh() == .notModified)
        #expect(store512.decide(lookalike).reason == .switchedOff)
        #expect(store512.fallbackURL(for: lookalike) == URL(string: "https://m.badoo.com/l/a/42?ul_fallback=1"))
        try await expectSameAsServer(store511, anonymous)
        try await expectSameAsServer(store512, anonymous)
        let before = Self.urls.map { store512.decide($0) }

        // The registry goes away: decisions stay, in memory and from disk.
        server.stop()
        let error = await #expect(throws: ClientError.self) { try await store512.refresh() }
        #expect(error?.isConnectionProblem == true)
        #expect(Self.urls.map { store512.decide($0) } == before)
        let relaunched = CanOpenStore(client: anonymous, app: "badoo", version: v512, cachesDirectory: caches)
        #expect(relaunched.status.source == .disk)
        #expect(relaunched.status.etag == store512.status.etag)
        #expect(Self.urls.map { relaunched.decide($0) } == before)
    }

    /// The store's local decisions equal the server's `CanOpen.Check` for every fixture URL.
    private func expectSameAsServer(_ store: CanOpenStore, _ client: RPCClient) async throws {
        for url in Self.urls {
            let remote = try await client.check(
                app: "badoo", platform: .ios, version: try #require(store.version), url: url)
            #expect(store.decide(url) == remote, "\(url) for \(store.version)")
        }
    }
}
