import Foundation
import RouteCore
import RouteStore
import Testing

/// `Store.write` with an idempotency key: the one place a write is recorded for retries and replayed.
@Suite("Store: idempotent writes")
struct IdempotentStoreWriteTests {
    let fixture: StoreTestDatabase
    let store: Store

    init() throws {
        fixture = try StoreTestDatabase(suite: "store_idempotent", poolSize: 4)
        store = Store(database: fixture.database)
    }

    /// Creates the fixture app `id` and answers its id; counts the body's runs.
    private func create(_ id: String, key: String?, actor: String = "alice", runs: Counter) throws -> Written<String> {
        try store.write(
            actor: actor, method: "Apps.Create", resource: "apps/\(id)", idempotencyKey: key
        ) { tx in
            runs.value += 1
            let created = try store.apps.create(Fixtures.app(id), in: tx)
            return WriteResult(created.value.id, after: try SQLJSON(encoding: created.value))
        }
    }

    private func auditCount() throws -> Int { try store.read { try store.audit.list(in: $0) }.items.count }

    @Test func aRetryAnswersTheRecordedValueWithoutRunningTheBodyOrAuditingAgain() throws {
        let runs = Counter()
        let first = try create("one", key: "k-1", runs: runs)
        #expect(first.value == "one" && !first.replayed)
        let audited = try auditCount()

        // The retry's body would answer another value (and fail: the app exists): it must not run.
        let retry = try create("two", key: "k-1", runs: runs)
        #expect(retry.replayed)
        #expect(retry.value == "one", "the retry answers the first write's value")
        #expect(runs.value == 1, "the retry ran the body")
        #expect(try auditCount() == audited, "the retry wrote an audit entry")
        #expect(try store.read { try store.apps.get("two", in: $0) } == nil, "the retry wrote")
    }

    @Test func theKeyIsScopedToTheActorAndTheMethodAndWritesWithoutOneAreNotRecorded() throws {
        let runs = Counter()
        _ = try create("one", key: "shared", runs: runs)
        let otherActor = try create("two", key: "shared", actor: "bob", runs: runs)
        #expect(!otherActor.replayed && otherActor.value == "two")
        let plain = try create("three", key: nil, runs: runs)
        let plainAgain = try create("four", key: nil, runs: runs)
        #expect(!plain.replayed && !plainAgain.replayed)
        #expect(runs.value == 4)
        #expect(try auditCount() == 4)
    }

    @Test func aWriteThatFailsRecordsNothingSoItsRetryRuns() throws {
        let runs = Counter()
        _ = try create("one", key: nil, runs: runs)
        #expect(throws: StoreError.self) { try create("one", key: "k-fail", runs: runs) }
        let retried = try create("other", key: "k-fail", runs: runs)
        #expect(!retried.replayed && retried.value == "other")
        #expect(runs.value == 3)
    }
}

/// A count the write bodies bump (they run on the caller's thread).
private final class Counter: @unchecked Sendable {
    // @unchecked: only touched by the test's own thread, inside synchronous writes.
    var value = 0
}
