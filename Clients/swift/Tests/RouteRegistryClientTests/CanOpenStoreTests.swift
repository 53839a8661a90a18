import Foundation
import RouteCore
import RouteRegistryClient
import Testing

@Suite("CanOpenStore")
final class CanOpenStoreTests {
    /// Each test's own caches directory, removed when the test ends.
    private let caches: URL
    /// What the fake registry serves; tests change it to simulate releases and switch-offs.
    private let registry = Locked(BadooFixture.registry())

    init() throws { caches = try BadooFixture.temporaryDirectory() }

    deinit { try? FileManager.default.removeItem(at: caches) }

    private func server() throws -> FakeRPCServer {
        let registry = self.registry
        return try FakeRPCServer { request in
            BadooFixture.getTableReply(request) { registry.value }
        }
    }

    private func store(
        _ server: URL, version: String = "5.11.0", bundled: URL? = nil, interval: TimeInterval = 3600
    ) throws -> CanOpenStore {
        CanOpenStore(
            client: RPCClient(server: server, timeout: 5), app: "badoo", platform: .ios,
            version: BadooFixture.version(version), cachesDirectory: caches, bundledTableURL: bundled,
            refreshInterval: interval)
    }

    private func deadServer() throws -> URL { URL(string: "http://127.0.0.1:\(try FakeRPCServer.closedPort())")! }

    /// Every fixture URL decided by the store and by RouteCore's engine for the same registry and version.
    private func expectSameDecisions(_ store: CanOpenStore, _ registry: Registry, version: String) {
        let engine = DecisionEngine(registry: registry)
        for url in BadooFixture.urls {
            let expected = engine.decide(app: "badoo", platform: .ios, version: BadooFixture.version(version), url: url)
            #expect(store.decide(url) == expected, "\(url) for \(version)")
        }
    }

    @Test func withoutAnyTableEverythingFallsBackToTheBrowser() throws {
        let store = try store(try deadServer())
        #expect(store.status.source == .none)
        #expect(store.table == nil)
        #expect(
            store.decide(URL(string: "https://m.badoo.com/u/1")!)
                == Decision(
                    decision: .openInBrowser, reason: .noRoute, fallbackUrl: "https://m.badoo.com/u/1?ul_fallback=1"))
        #expect(store.decide("badoo://offer/1") == Decision(decision: .openInBrowser, reason: .noRoute))
        #expect(
            store.fallbackURL(for: URL(string: "https://m.badoo.com/u/1?a=b")!)
                == URL(string: "https://m.badoo.com/u/1?a=b&ul_fallback=1"))
    }

    @Test(arguments: [true, false])
    func loadsABundledTable(asGetTableResult: Bool) throws {
        let (table, etag) = try BadooFixture.table(registry.value, version: "5.11.0")
        let bundled = caches.appendingPathComponent("CanOpenTable.json")
        let bytes =
            asGetTableResult
            ? try CanonicalJSON.encode(API.CanOpenGetTable.Output(etag: etag, notModified: false, table: table))
            : try CanonicalJSON.encode(table)
        try bytes.write(to: bundled)
        let store = try store(try deadServer(), bundled: bundled)
        #expect(store.status.source == .bundled)
        #expect(store.status.etag == etag)
        #expect(store.table == table)
        expectSameDecisions(store, registry.value, version: "5.11.0")
    }

    @Test func ignoresABundledTableOfAnotherVersion() throws {
        let (table, _) = try BadooFixture.table(registry.value, version: "5.12.0")
        let bundled = caches.appendingPathComponent("CanOpenTable.json")
        try CanonicalJSON.encode(table).write(to: bundled)
        #expect(try store(try deadServer(), version: "5.11.0", bundled: bundled).status.source == .none)
        #expect(try store(try deadServer(), version: "5.12", bundled: bundled).status.source == .bundled)
    }

    @Test func fetchesPersistsAndReloadsFromDiskWithoutTheServer() async throws {
        let server = try server()
        let online = try store(server.url)
        #expect(try await online.refresh() == .updated)
        #expect(online.status.source == .server)
        #expect(online.status.lastChecked != nil)
        expectSameDecisions(online, registry.value, version: "5.11.0")
        server.stop()

        let offline = try store(try deadServer())
        #expect(offline.status.source == .disk)
        #expect(offline.status.etag == online.status.etag)
        expectSameDecisions(offline, registry.value, version: "5.11.0")
        // An upgraded app does not decide with the previous version's cached table.
        #expect(try store(try deadServer(), version: "5.12.0").status.source == .none)
    }

    @Test func diskCacheWinsOverTheBundledTable() async throws {
        let bundled = caches.appendingPathComponent("CanOpenTable.json")
        try CanonicalJSON.encode(try BadooFixture.table(registry.value, version: "5.12.0").table).write(to: bundled)
        let server = try server()
        defer { server.stop() }
        registry.withLock { $0 = BadooFixture.registry(lookalikesSwitchedOffIn: ["5.12.0"]) }
        try await store(server.url, version: "5.12.0").refresh()
        let reloaded = try store(try deadServer(), version: "5.12.0", bundled: bundled)
        #expect(reloaded.status.source == .disk)
        #expect(reloaded.decide("https://m.badoo.com/l/a/42").reason == .switchedOff)
    }

    @Test func revalidatesWithIfNoneMatchAndPicksUpChanges() async throws {
        let server = try server()
        defer { server.stop() }
        let store = try store(server.url, version: "5.12.0")
        #expect(try await store.refresh() == .updated)
        let firstETag = try #require(store.status.etag)
        #expect(store.decide("https://m.badoo.com/l/a/42").decision == .openInApp)

        #expect(try await store.refresh() == .notModified)
        #expect(server.requests.map { $0.params["ifNoneMatch"] } == [nil, .string(firstETag)])
        #expect(store.status.etag == firstETag)

        // Step 6 of the scenario: lookalikes switched off for 5.12.0.
        registry.withLock { $0 = BadooFixture.registry(lookalikesSwitchedOffIn: ["5.12.0"]) }
        #expect(try await store.refresh() == .updated)
        #expect(store.status.etag != firstETag)
        let decision = store.decide("https://m.badoo.com/l/a/42")
        #expect(decision.reason == .switchedOff)
        #expect(decision.fallbackUrl == "https://m.badoo.com/l/a/42?ul_fallback=1")
        expectSameDecisions(store, registry.value, version: "5.12.0")
    }

    @Test func revalidatesABundledTableWithItsETag() async throws {
        let (table, etag) = try BadooFixture.table(registry.value, version: "5.11.0")
        let bundled = caches.appendingPathComponent("CanOpenTable.json")
        try CanonicalJSON.encode(table).write(to: bundled)
        let server = try server()
        defer { server.stop() }
        let store = try store(server.url, bundled: bundled)
        #expect(try await store.refresh() == .notModified)
        #expect(server.requests.first?.params["ifNoneMatch"] == .string(etag))
        #expect(store.status.source == .bundled)
    }

    @Test func keepsDecidingAfterTheServerIsGone() async throws {
        let server = try server()
        let store = try store(server.url)
        try await store.refresh()
        server.stop()
        let error = await #expect(throws: ClientError.self) { try await store.refresh() }
        #expect(error?.isConnectionProblem == true)
        #expect(store.status.source == .server)
        let decision = store.decide(URL(string: "https://m.badoo.com/l/a/42")!)
        #expect(decision.decision == .openInBrowser)
        #expect(decision.reason == .unsupportedVersion)
        #expect(decision.supportedSince == "5.12.0")
        expectSameDecisions(store, registry.value, version: "5.11.0")
    }

    @Test func fallbackURLs() async throws {
        let server = try server()
        defer { server.stop() }
        let store = try store(server.url)
        try await store.refresh()
        #expect(
            store.fallbackURL(for: URL(string: "https://m.badoo.com/l/a/42#x")!)
                == URL(string: "https://m.badoo.com/l/a/42?ul_fallback=1#x"))
        let marked = URL(string: "https://m.badoo.com/l/a/42?ul_fallback=1")!
        #expect(store.fallbackURL(for: marked) == marked)
        // A link this version opens can still be sent to the web (the app decided it cannot show it now).
        #expect(
            store.fallbackURL(for: URL(string: "https://m.badoo.com/u/1")!)
                == URL(string: "https://m.badoo.com/u/1?ul_fallback=1"))
        // 5.11.0 does not handle the offer scheme route: its web equivalent, marked.
        #expect(
            store.fallbackURL(for: URL(string: "badoo://offer/7")!)
                == URL(string: "https://badoo.com/offer/7?ul_fallback=1"))
        #expect(store.fallbackURL(for: URL(string: "badoo://other")!) == nil)
    }

    @Test func decidesConsistentlyWhileTheTableChanges() async throws {
        let server = try server()
        defer { server.stop() }
        let store = try store(server.url, version: "5.12.0")
        try await store.refresh()
        let open = store.decide("https://m.badoo.com/l/a/42")
        registry.withLock { $0 = BadooFixture.registry(lookalikesSwitchedOffIn: ["5.12.0"]) }
        let refresh = Task { try await store.refresh() }
        let seen = Locked<Set<Decision>>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let decision = store.decide("https://m.badoo.com/l/a/42")
                seen.withLock { $0.insert(decision) }
            }
        }
        #expect(try await refresh.value == .updated)
        let switchedOff = store.decide("https://m.badoo.com/l/a/42")
        #expect(switchedOff.reason == .switchedOff)
        #expect(seen.value.isSubset(of: [open, switchedOff]))
    }

    @Test func autoRefreshRevalidatesOnStartAndOnSchedule() async throws {
        let server = try server()
        defer { server.stop() }
        let store = try store(server.url, interval: 0.05)
        store.startAutoRefresh()
        defer { store.stopAutoRefresh() }
        // Poll for the effect rather than assert on timing: at start, then at least once more.
        for _ in 0..<400 where server.requests.count < 2 { try await Task.sleep(nanoseconds: 25_000_000) }
        #expect(server.requests.count >= 2)
        #expect(store.status.source == .server)
        #expect(server.requests.dropFirst().allSatisfy { $0.params["ifNoneMatch"]?.stringValue == store.status.etag })
    }

    @Test func refreshIfStaleOnlyAsksWhenTheTableIsOld() async throws {
        let server = try server()
        defer { server.stop() }
        let fresh = try store(server.url)
        await fresh.refreshIfStale()
        await fresh.refreshIfStale()
        #expect(server.requests.count == 1)
        #expect(fresh.status.source == .server)

        let alwaysStale = try store(server.url, interval: 0)
        await alwaysStale.refreshIfStale()
        await alwaysStale.refreshIfStale()
        #expect(server.requests.count == 3)
    }

    @Test func anAutoRefreshingStoreIsReleasedWhenNobodyHoldsIt() async throws {
        weak var released: CanOpenStore?
        do {
            let store = try store(try deadServer(), interval: 0.01)
            store.startAutoRefresh()
            released = store
        }
        for _ in 0..<400 where released != nil { try await Task.sleep(nanoseconds: 25_000_000) }
        #expect(released == nil)
    }
}
