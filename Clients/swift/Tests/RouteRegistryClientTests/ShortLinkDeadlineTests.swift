import Foundation
import RouteCore
import RouteRegistryClient
import Testing

/// `open(_:from:)` against a scripted registry: the resolution's deadline holds when the registry never
/// answers, a fresh cached resolution asks nothing, and the short link marker comes from the table.
@Suite("Short link resolution: deadline and cache")
struct ShortLinkDeadlineTests {
    /// The fixture registry plus the link domain `go.badoo.com`, resolved by every version from 5.0.
    static func registry() -> Registry {
        var registry = BadooFixture.registry()
        registry.domains.append(Domain(host: "go.badoo.com", apps: ["badoo"], links: true))
        registry.routes["badoo", default: []].insert(
            Route(
                id: "links-go-badoo-com", pattern: URLPattern(path: "/*"),
                platforms: [.ios: VersionRange(since: BadooFixture.version("5.0"))], domains: ["go.badoo.com"]),
            at: 0)
        return registry
    }

    static let resolved = #"""
        {"target":"https://m.badoo.com/u/42","app":"badoo","route":"profile","minVersion":"5.0.0",\#
        "minVersionSource":"route","decision":{"decision":"open_in_app","reason":"route","route":"profile"}}
        """#

    @Test func theTableMarksTheLinkDomain() throws {
        let table = try BadooFixture.table(Self.registry(), version: "5.12.0").table
        #expect(table.domains.filter { $0.links == true }.map(\.name) == ["go.badoo.com"])
        #expect(
            try BadooFixture.table(BadooFixture.registry(), version: "5.12.0").table.domains.allSatisfy {
                $0.links == nil
            })
    }

    @Test func aRegistryThatNeverAnswersCostsTheDeadlineThenTheCacheAnswers() async throws {
        let caches = try BadooFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: caches) }
        let bundled = caches.appendingPathComponent("CanOpenTable.json")
        try CanonicalJSON.encode(try BadooFixture.table(Self.registry(), version: "5.12.0").table).write(to: bundled)
        let answering = Locked(false)
        let server = try FakeRPCServer { request in
            guard request.method == "Links.Resolve" else { return .error(#"{"code":-32601,"message":"no"}"#) }
            return answering.value ? .result(Self.resolved) : .hang
        }
        defer { server.stop() }
        // The client would wait 300 s; the store's short-link deadline is half a second.
        let store = CanOpenStore(
            client: RPCClient(server: server.url, timeout: 300), app: "badoo", version: BadooFixture.version("5.12.0"),
            cachesDirectory: caches, bundledTableURL: bundled, shortLinkTimeout: 0.5)
        #expect(store.linkDomains == ["go.badoo.com"])
        let link = URL(string: "https://go.badoo.com/summer")!

        let started = Date()
        let late = await store.open(link, from: .notification)
        let waited = Date().timeIntervalSince(started)
        // Far below the client's 300 s. The margin is wide: Swift Testing runs the other suites in parallel on
        // the same two cooperative threads, and a blocking one (a test server starting its PostgreSQL) delays
        // every resumption; `make test` on a loaded machine saw more than 30 s.
        #expect(waited >= 0.4 && waited < 200, "waited \(waited) s")
        #expect(late.resolution == .unavailable)
        #expect(late.route == .openInBrowser(URL(string: "https://go.badoo.com/summer?ul_fallback=1")!))

        // The registry answers: a store with a deadline a loaded machine cannot miss resolves and keeps it.
        answering.withLock { $0 = true }
        let patient = CanOpenStore(
            client: RPCClient(server: server.url, timeout: 60), app: "badoo", version: BadooFixture.version("5.12.0"),
            cachesDirectory: caches, bundledTableURL: bundled, shortLinkTimeout: 30)
        let opened = await patient.open(link, from: .notification)
        #expect(opened.resolution == .server)
        #expect(opened.route == .openInApp(route: "profile", url: URL(string: "https://m.badoo.com/u/42")!))
        let asked = server.requests.count

        // Fresh in the cache: answered without the registry, also by a new store reading the file.
        answering.withLock { $0 = false }
        #expect(await patient.open(link, from: .widget).resolution == .cache)
        let relaunched = CanOpenStore(
            client: RPCClient(server: server.url), app: "badoo", version: BadooFixture.version("5.12.0"),
            cachesDirectory: caches, bundledTableURL: bundled, shortLinkTimeout: 0.5)
        let fromDisk = await relaunched.open(link, from: .universalLink)
        #expect(fromDisk.resolution == .cache)
        #expect(fromDisk.route == opened.route)
        #expect(server.requests.count == asked)

        // No table (this version's was never fetched or bundled): the short link goes to the browser unresolved.
        let other = CanOpenStore(
            client: RPCClient(server: server.url), app: "badoo", version: BadooFixture.version("5.11.0"),
            cachesDirectory: caches, shortLinkTimeout: 0.3)
        #expect(other.linkDomains.isEmpty, "no table for 5.11.0 here")
        let noTable = await other.open(link, from: .universalLink)
        #expect(noTable.resolution == nil)
        #expect(noTable.route == .openInBrowser(URL(string: "https://go.badoo.com/summer?ul_fallback=1")!))
    }

    @Test func aWebLinkTheTableDoesNotKnowGoesToTheBrowserOnlyFromTheAppsOwnSurfaces() async throws {
        let table = try BadooFixture.table(Self.registry(), version: "5.12.0")
        let caches = try BadooFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: caches) }
        let bundled = caches.appendingPathComponent("CanOpenTable.json")
        try CanonicalJSON.encode(table.table).write(to: bundled)
        let store = CanOpenStore(
            client: RPCClient(server: URL(string: "http://127.0.0.1:1")!), app: "badoo",
            version: BadooFixture.version("5.12.0"), cachesDirectory: nil, bundledTableURL: bundled)
        let foreign = URL(string: "https://example.com/promo")!
        for source in LinkSource.allCases {
            let opening = await store.open(foreign, from: source)
            #expect(opening.decision == .notAssociated)
            #expect(opening.route == (source.isSystemRouted ? .ignore : .openInBrowser(foreign)), "\(source)")
        }
        #expect(await store.open(URL(string: "myapp-oauth://callback")!, from: .customScheme).route == .passThrough)
        #expect(LinkSource.url(in: ["url": " https://go.badoo.com/x "]) == URL(string: "https://go.badoo.com/x"))
        #expect(LinkSource.url(in: ["link": "https://go.badoo.com/x"]) == nil)
        #expect(LinkSource.url(in: ["url": 42]) == nil)
    }
}
