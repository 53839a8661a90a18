import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("Store: audited writes, notifications, registry")
struct StoreTests {
    let fixture: StoreTestDatabase
    let store: Store

    init() throws {
        fixture = try StoreTestDatabase(suite: "store", poolSize: 10)
        store = Store(database: fixture.database)
    }

    @Test func aWriteCommitsItsAuditEntryAndNotifiesListeners() throws {
        let received = Received<ChangeNotice>()
        let listener = ChangeListener(url: fixture.url, onChange: { received.append($0) })
        #expect(listener.start())
        defer { listener.stop() }
        let app = try store.write(actor: "alice", method: "Apps.Create", resource: "apps/badoo", requestID: "r1") {
            tx in
            let created = try store.apps.create(Fixtures.app(), in: tx)
            return WriteResult(created, after: try SQLJSON(encoding: created.value))
        }
        #expect(app.value.id == "badoo")
        let token = UUID().uuidString.lowercased()
        try store.write(
            actor: "bob", method: "Releases.Publish", resource: "apps/badoo/platforms/ios/releases/5.11.0",
            writeToken: token
        ) { tx in
            _ = try store.releases.upsertDraft(
                app: "badoo", platform: .ios, version: Fixtures.version("5.11.0"), in: tx)
            return WriteResult((), change: ChangeNotice(kind: "revisions", ids: ["domains/badoo.com/revisions/1"]))
        }
        #expect(received.wait(count: 2))
        #expect(
            received.values.map { ChangeNotice(kind: $0.kind, ids: $0.ids) } == [
                ChangeNotice(kind: "Apps.Create", ids: ["apps/badoo"]),
                ChangeNotice(kind: "revisions", ids: ["domains/badoo.com/revisions/1"]),
            ])
        // Each names the state its write committed, so the server that wrote it can skip its own.
        #expect(received.values.last?.writeToken == token)
        #expect(received.values.first?.writeToken != nil && received.values.first?.writeToken != token)
        let entries = try store.read { try store.audit.list(in: $0) }.items
        #expect(entries.map(\.actor) == ["bob", "alice"])
        #expect(entries[1].requestID == "r1" && entries[1].before == nil)
        let after = try JSONDecoder().decode(App.self, from: try #require(entries[1].after))
        #expect(after == Fixtures.app())
    }

    @Test func aWriteThatFailsMidwayLeavesNoTraceAndSendsNothing() throws {
        let received = Received<ChangeNotice>()
        let listener = ChangeListener(url: fixture.url, onChange: { received.append($0) })
        #expect(listener.start())
        defer { listener.stop() }
        let error = try #require(throws: StoreError.self) {
            try store.write(actor: "alice", method: "Apps.Create", resource: "apps/badoo") { tx in
                _ = try store.apps.create(Fixtures.app(), in: tx)
                _ = try store.apps.create(Fixtures.app(), in: tx)
                return WriteResult(())
            }
        }
        #expect(error.code == .alreadyExists)
        // A write that succeeds afterwards is the only thing the listener hears.
        try store.write(actor: "alice", method: "Apps.Create", resource: "apps/other") { tx in
            WriteResult(try store.apps.create(Fixtures.app("other"), in: tx))
        }
        #expect(received.wait(count: 1))
        #expect(received.values.map(\.ids) == [["apps/other"]])
        #expect(try store.read { try store.apps.get("badoo", in: $0) } == nil)
        #expect(try store.read { try store.audit.list(in: $0) }.items.map(\.resource) == ["apps/other"])
    }

    @Test func concurrentWritersGetGapFreeRevisionNumbers() throws {
        let writers = 10
        let store = self.store
        let outcomes = runConcurrently(writers) { index -> Result<Int, any Error> in
            Result {
                try store.write(actor: "writer-\(index)", method: "Releases.Publish", resource: "apps/badoo") { tx in
                    // Read-then-write inside the lock: the pattern the service uses to compute the next file.
                    let previous = try store.revisions.latest(host: "m.badoo.com", kind: .aasa, in: tx)
                    let revision = try store.revisions.append(
                        host: "m.badoo.com", kind: .aasa, bytes: Data("doc \(index)".utf8), etag: "e\(index)",
                        cause: "publish \(index) after \(previous?.number ?? 0)",
                        liveVersions: SQLJSON(json: Data("{}".utf8)),
                        in: tx)
                    return WriteResult(revision.number)
                }
            }
        }
        let numbers = try outcomes.map { try $0.get() }
        #expect(numbers.sorted() == Array(1...writers))
        let stored = try store.read {
            try store.revisions.list(host: "m.badoo.com", kind: .aasa, PageRequest(pageSize: 100), in: $0)
        }.items
        #expect(stored.map(\.number) == Array((1...writers).reversed()))
        // Each writer saw the one before it: the lock serialized read and append.
        for revision in stored {
            #expect(revision.cause.hasSuffix("after \(revision.number - 1)"))
        }
        #expect(try store.read { try store.audit.list(PageRequest(pageSize: 100), in: $0) }.items.count == writers)
    }

    @Test func loadRegistryReadsEverything() throws {
        try store.write(actor: "alice", method: "Setup", resource: "apps/badoo") { tx in
            _ = try store.apps.create(Fixtures.app(), in: tx)
            _ = try store.domains.create(Domain(host: "m.badoo.com", apps: ["badoo"]), in: tx)
            _ = try store.routes.create(Fixtures.route("profile", path: "/u/*"), app: "badoo", in: tx)
            _ = try store.routes.create(Fixtures.route("help", path: "/help/*", since: nil), app: "badoo", in: tx)
            _ = try store.releases.upsertDraft(
                app: "badoo", platform: .ios, version: Fixtures.version("5.11.0"), in: tx)
            _ = try store.releases.setState(
                app: "badoo", platform: .ios, version: Fixtures.version("5.11.0"), to: .live, in: tx)
            return WriteResult(())
        }
        let registry = try store.loadRegistry()
        #expect(registry.apps == [Fixtures.app()])
        #expect(registry.domains == [Domain(host: "m.badoo.com", apps: ["badoo"])])
        #expect(registry.routes["badoo"]?.map(\.id) == ["profile", "help"])
        #expect(registry.liveVersions(app: "badoo", platform: .ios) == [Fixtures.version("5.11.0")])
    }
}

/// Values collected from another thread, with a bounded wait for them to arrive.
final class Received<T: Sendable>: @unchecked Sendable {
    // @unchecked: `items` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var items: [T] = []

    func append(_ item: T) {
        condition.lock()
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    var values: [T] {
        condition.lock()
        defer { condition.unlock() }
        return items
    }

    /// Waits until at least `count` values arrived (or 10 seconds passed); true if they did.
    func wait(count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        condition.lock()
        defer { condition.unlock() }
        while items.count < count {
            if !condition.wait(until: deadline) { return items.count >= count }
        }
        return true
    }
}
