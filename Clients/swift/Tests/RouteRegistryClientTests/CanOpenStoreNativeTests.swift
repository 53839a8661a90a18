import Foundation
import RouteCore
import RouteRegistryClient
import Synchronization
import Testing

#if canImport(Observation)
    import Observation
#endif

/// What an iOS app expects of the store: no `try!` to create it, custom schemes that are not the registry's
/// passed through, a revalidation it can trigger on a silent push or on foreground, tables by the cacheable
/// GET, and a store SwiftUI can observe.
@Suite("CanOpenStore as an app uses it")
final class CanOpenStoreNativeTests {
    private let caches: URL
    private let registry = Locked(BadooFixture.registry())

    init() throws { caches = try BadooFixture.temporaryDirectory() }

    deinit { try? FileManager.default.removeItem(at: caches) }

    private func server(getAnswers: Bool = true) throws -> FakeRPCServer {
        let registry = self.registry
        return try FakeRPCServer { request in
            // An older registry has no table GET: its 404 is plain text.
            if request.viaGET && !getAnswers { return .error(#"{"code":5,"message":"not found"}"#) }
            return BadooFixture.getTableReply(request) { registry.value }
        }
    }

    private func store(_ server: URL, version: String = "5.12.0") -> CanOpenStore {
        CanOpenStore(
            client: RPCClient(server: server, timeout: 5), app: "badoo", platform: .ios,
            version: BadooFixture.version(version), cachesDirectory: caches)
    }

    @Test func constructionNeverThrowsAndAnUnknownVersionDecidesSafely() async throws {
        // The test runner's main bundle has no CFBundleShortVersionString: before, this init threw.
        let store = CanOpenStore(
            client: RPCClient(server: URL(string: "http://127.0.0.1:9")!), app: "badoo", cachesDirectory: caches)
        #expect(store.version == nil)
        #expect(store.versionProblem == .unknownVersion(nil))
        #expect(store.status.source == .none)
        let decision = store.decide("https://m.badoo.com/u/1")
        #expect(decision.decision == .openInBrowser)
        await #expect(throws: CanOpenStoreError.unknownVersion(nil)) { try await store.refresh() }
    }

    @Test func customSchemesTheTableDoesNotManagePassThrough() async throws {
        let server = try server()
        defer { server.stop() }
        let store = store(server.url)
        // No table yet: any custom scheme is the app's to route (before, `openInBrowser noRoute`).
        #expect(store.route(URL(string: "com.example.app.oauth:/callback?code=42")!) == .passThrough)
        #expect(store.route(URL(string: "badoo://offer/7")!) == .passThrough)
        try await store.refresh()
        // With the table: an OAuth callback is still the app's (before, `notAssociated`, swallowed by
        // handleOrFallBack); the registry's own scheme is decided.
        #expect(store.route(URL(string: "com.example.app.oauth:/callback?code=42")!) == .passThrough)
        #expect(store.route(URL(string: "fb123456://authorize#token=x")!) == .passThrough)
        // Opened in the app with the deciding route's ID, for the app's router to dispatch on.
        #expect(
            store.route(URL(string: "badoo://offer/7")!)
                == .openInApp(route: "offer", url: URL(string: "badoo://offer/7")!))
        #expect(
            store.route(URL(string: "https://m.badoo.com/u/1")!)
                == .openInApp(route: "profile", url: URL(string: "https://m.badoo.com/u/1")!))
        #expect(store.route(URL(string: "https://example.com/u/1")!) == .ignore)

        let old = self.store(server.url, version: "5.11.0")
        try await old.refresh()
        // 5.11.0 does not handle the offer route: its web equivalent.
        #expect(
            old.route(URL(string: "badoo://offer/7")!)
                == .openInBrowser(URL(string: "https://badoo.com/offer/7?ul_fallback=1")!))
        guard case .openInBrowser(let web) = old.route(URL(string: "https://m.badoo.com/l/a/42")!) else {
            Issue.record("a 5.12.0 route on 5.11.0 must fall back to the web")
            return
        }
        #expect(web.absoluteString.contains("ul_fallback=1"))
    }

    @Test func refreshIfOlderThanRevalidatesOnlyAStaleTableByTheCacheableGET() async throws {
        let server = try server()
        defer { server.stop() }
        let store = store(server.url)
        #expect(try await store.refresh(ifOlderThan: 60) == .updated)
        #expect(server.requests.count == 1)
        // Foreground a moment later: confirmed within the minute, nothing is sent.
        #expect(try await store.refresh(ifOlderThan: 60) == nil)
        #expect(server.requests.count == 1)
        // A silent push after a kill switch: revalidate now, with the ETag held.
        registry.withLock { $0 = BadooFixture.registry(lookalikesSwitchedOffIn: ["5.12.0"]) }
        let etag = try #require(store.status.etag)
        #expect(try await store.refresh(ifOlderThan: 0) == .updated)
        #expect(store.decide("https://m.badoo.com/l/a/42").reason == .switchedOff)
        #expect(try await store.refresh(ifOlderThan: 0) == .notModified)
        let requests = server.requests
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.viaGET }, "tables come by GET /canopen/v1/…, not JSON-RPC")
        #expect(requests[1].headers["if-none-match"] == etag)
        #expect(requests[2].headers["if-none-match"] == store.status.etag)
    }

    @Test func aRegistryWithoutTheGETIsAskedByJSONRPC() async throws {
        let server = try server(getAnswers: false)
        defer { server.stop() }
        let store = store(server.url)
        #expect(try await store.refresh() == .updated)
        #expect(server.requests.map(\.viaGET) == [true, false])
        #expect(store.status.source == .server)
    }

    #if canImport(Observation)
        @Test func observersSeeANewTableAndAConfirmation() async throws {
            let server = try server()
            defer { server.stop() }
            let store = store(server.url)
            let changes = Atomic<Int>(0)
            withObservationTracking {
                _ = store.table
            } onChange: {
                changes.add(1, ordering: .relaxed)
            }
            try await store.refresh()
            #expect(changes.load(ordering: .relaxed) == 1)
            // A 304 changes `status.lastChecked` only: observers of `status` hear of it, of `table` not.
            let statusChanges = Atomic<Int>(0)
            let tableChanges = Atomic<Int>(0)
            withObservationTracking {
                _ = store.status
            } onChange: {
                statusChanges.add(1, ordering: .relaxed)
            }
            withObservationTracking {
                _ = store.table
            } onChange: {
                tableChanges.add(1, ordering: .relaxed)
            }
            #expect(try await store.refresh() == .notModified)
            #expect(statusChanges.load(ordering: .relaxed) == 1)
            #expect(tableChanges.load(ordering: .relaxed) == 0)
        }
    #endif
}
