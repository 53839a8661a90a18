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

    /// Creates the fixture app `id` and answers its id; counts the body's runs. `params` is the fingerprint
    /// sent with the key (nil: none).
    private func create(
        _ id: String, key: String?, params: String? = nil, actor: String = "alice", runs: Counter
    ) throws -> Written<String> {
        try store.write(
            actor: actor, method: "Apps.Create", resource: "apps/\(id)",
            idempotencyKey: key.map { IdempotencyKey($0, paramsFingerprint: params) }
        ) { tx in
            runs.value += 1
            let created = try store.apps.create(Fixtures.app(id), in: tx)
            return WriteResult(created.value.id, after: try SQLJSON(encoding: created.value))
        }
    }

    private func auditCount() throws -> Int { try store.read { try store.audit.list(in: $0) }.items.count }

    /// A params fingerprint standing for the params of a call creating `id`.
    private static func fingerprint(_ id: String) -> String { SHA256.hex(Array(#"{"app":{"id":"\#(id)"}}"#.utf8)) }

    private func app(_ id: String) throws -> App? { try store.read { try store.apps.get(id, in: $0) }?.value }

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

    @Test func theSameKeyWithTheSameParamsReplaysAndWithOtherParamsIsRefusedWritingNothing() throws {
        let runs = Counter()
        let first = try create("one", key: "k-1", params: Self.fingerprint("one"), runs: runs)
        let audited = try auditCount()
        let retry = try create("one", key: "k-1", params: Self.fingerprint("one"), runs: runs)
        #expect(retry.replayed && retry.value == first.value)

        // The key reused for another call: refused under the lock, before the body, and nothing is written.
        let reused = try #require(throws: StoreError.self) {
            try create("two", key: "k-1", params: Self.fingerprint("two"), runs: runs)
        }
        #expect(reused.code == .requestReused)
        #expect(reused.code.isDomainAnswer, "a refusal to word for the client, not a database failure")
        #expect(runs.value == 1, "a retry or a refused call ran the body")
        #expect(try auditCount() == audited, "a retry or a refused call wrote an audit entry")
        #expect(try app("two") == nil, "the refused call wrote")

        // The refusal recorded nothing either: the key still replays its own params, and is still its own.
        let again = try create("one", key: "k-1", params: Self.fingerprint("one"), runs: runs)
        #expect(again.replayed && again.value == "one")
        #expect(throws: StoreError.self) { try create("two", key: "k-1", params: Self.fingerprint("two"), runs: runs) }
        // Another actor's same key with other params is another call.
        let theirs = try create("two", key: "k-1", params: Self.fingerprint("two"), actor: "bob", runs: runs)
        #expect(!theirs.replayed && theirs.value == "two")
    }

    /// During a rolling upgrade a server of the previous release records keys without a fingerprint (it does
    /// not know the column, migration 0016): a retry of such a key replays as it always did, whatever the
    /// params; so does a retry that sends no fingerprint.
    @Test func aKeyRecordedWithoutAFingerprintReplaysAsBefore() throws {
        let runs = Counter()
        _ = try create("old", key: nil, runs: runs)
        let audited = try auditCount()
        // The previous release's statement, word for word (WriteRequestRepository.record before issue 42).
        try fixture.database.withTransaction { tx in
            let outcome = try SQLJSON(encoding: "old")
            try tx.query(
                """
                INSERT INTO write_requests (actor, method, request_id, outcome, audit_id)
                VALUES (\("alice"), \("Apps.Create"), \("k-old"), \(outcome)::jsonb, (SELECT max(id) FROM audit))
                """)
        }
        let retried = try create("new", key: "k-old", params: Self.fingerprint("new"), runs: runs)
        #expect(retried.replayed && retried.value == "old")
        #expect(runs.value == 1)
        #expect(try auditCount() == audited)
        #expect(try app("new") == nil)

        // A fingerprinted key retried without a fingerprint (nothing to compare) replays too.
        _ = try create("three", key: "k-3", params: Self.fingerprint("three"), runs: runs)
        let unfingerprinted = try create("four", key: "k-3", runs: runs)
        #expect(unfingerprinted.replayed && unfingerprinted.value == "three")
        #expect(runs.value == 2)
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
