import Foundation
import RouteCore

/// The store as the service uses it: audited, serialized writes that announce themselves, and
/// consistent reads.
public final class Store: Sendable {
    /// The channel every committed write NOTIFYs.
    public static let changeChannel = "routereg_changes"

    public let database: Database
    public let apps = AppRepository()
    public let domains = DomainRepository()
    public let routes = RouteRepository()
    public let releases = ReleaseRepository()
    public let revisions = RevisionRepository()
    public let audit = AuditRepository()
    public let tokens = TokenRepository()
    public let links = LinkRepository()
    public let clicks = ClickRepository()
    public let webhooks = WebhookRepository()
    public let misses = LinkMissRepository()
    public let delivery = DeliveryRepository()
    public let writeRequests = WriteRequestRepository()

    public init(database: Database) {
        self.database = database
    }

    /// Runs one audited write in one transaction: takes the registry-wide write lock, runs `body`, appends
    /// the audit entry (before/after from the body) and NOTIFYs `changeChannel`; all of it commits together
    /// (NOTIFY is delivered at commit) or not at all.
    ///
    /// `body` may run more than once (after a serialization failure or deadlock), so it must only touch
    /// the database and local state. The audit entry carries `writeToken`, which names the state the write
    /// commits (see `Snapshot.writeToken`). Nothing waits past `deadline`, and a write whose deadline passed
    /// before COMMIT is rolled back.
    @discardableResult
    public func write<T>(
        actor: String, method: String, resource: String, requestID: String? = nil,
        writeToken: String = UUID().uuidString.lowercased(), deadline: ContinuousClock.Instant? = nil,
        _ body: (Transaction) throws -> WriteResult<T>
    ) throws -> T {
        try audited(
            actor: actor, method: method, resource: resource, requestID: requestID, writeToken: writeToken,
            idempotency: nil, deadline: deadline, body
        ).value
    }

    /// `write`, idempotent by `idempotencyKey` (AIP-155) when there is one: under the write lock, a committed
    /// write of the same actor, method and key is answered with its recorded value (`replayed`; the body
    /// does not run, nothing is written), unless both it and this call have a params fingerprint and they
    /// differ: then the key was reused for another call, and `StoreError.requestReused` is thrown (nothing
    /// written). Else the body's value is recorded with the write and the fingerprint, in its transaction
    /// (`writeRequests`). The one place a write's idempotency lives.
    public func write<T: Codable>(
        actor: String, method: String, resource: String, requestID: String? = nil,
        writeToken: String = UUID().uuidString.lowercased(), idempotencyKey: IdempotencyKey?,
        deadline: ContinuousClock.Instant? = nil, _ body: (Transaction) throws -> WriteResult<T>
    ) throws -> Written<T> {
        try audited(
            actor: actor, method: method, resource: resource, requestID: requestID, writeToken: writeToken,
            idempotency: idempotencyKey.map { key in
                Idempotency(
                    key: key, encode: { try SQLJSON(encoding: $0) },
                    decode: { try JSONDecoder().decode(T.self, from: $0) })
            }, deadline: deadline, body)
    }

    /// How an idempotent write records and replays its value.
    private struct Idempotency<T> {
        var key: IdempotencyKey
        var encode: (T) throws -> SQLJSON
        var decode: (Data) throws -> T
    }

    private func audited<T>(
        actor: String, method: String, resource: String, requestID: String?, writeToken: String,
        idempotency: Idempotency<T>?, deadline: ContinuousClock.Instant?,
        _ body: (Transaction) throws -> WriteResult<T>
    ) throws -> Written<T> {
        try database.withTransaction(deadline: deadline) { tx in
            try tx.lockForWrite()
            // Looked up under the lock: a first attempt still running commits (or not) before a retry looks.
            if let idempotency,
                let first = try writeRequests.recorded(
                    actor: actor, method: method, requestID: idempotency.key.requestID, in: tx)
            {
                // A row of a server from before fingerprints has none: it replays without comparing, as it did.
                if let sent = idempotency.key.paramsFingerprint, let recorded = first.paramsFingerprint,
                    sent != recorded
                {
                    throw StoreError(.requestReused, detail: "\(method) \(idempotency.key.requestID)")
                }
                return Written(value: try idempotency.decode(first.outcome), replayed: true)
            }
            let result = try body(tx)
            let entry = try audit.append(
                actor: actor, method: method, resource: resource, before: result.before, after: result.after,
                requestID: requestID, writeToken: writeToken, apps: result.apps, in: tx)
            if let idempotency {
                try writeRequests.record(
                    actor: actor, method: method, key: idempotency.key,
                    outcome: try idempotency.encode(result.value), auditID: entry.id, in: tx)
            }
            var change = result.change ?? ChangeNotice(kind: method, ids: [resource])
            change.writeToken = writeToken
            try tx.query(prepared: "SELECT pg_notify(\(Store.changeChannel), \(change.payload))")
            return Written(value: result.value, replayed: false)
        }
    }

    /// Adds click counts and miss counts in a transaction of their own (counters are not registry writes: no
    /// lock, no audit entry), within `deadline`.
    public func addClicks(
        _ counts: [ClickKey: Int], misses: [LinkMissKey: Int] = [:], deadline: ContinuousClock.Instant? = nil
    ) throws {
        guard !counts.isEmpty || !misses.isEmpty else { return }
        try database.withTransaction(deadline: deadline) { tx in
            try clicks.add(counts, in: tx)
            try self.misses.add(misses, in: tx)
            // In the same transaction: a flush that fails puts its counts back, and sends no event either.
            try webhooks.enqueueClicks(counts, in: tx)
        }
    }

    /// Records tokens' last uses in a transaction of their own (like clicks: no lock, no audit entry, no
    /// notification), within `deadline`.
    public func recordTokenUses(_ uses: [String: Date], deadline: ContinuousClock.Instant? = nil) throws {
        guard !uses.isEmpty else { return }
        try database.withTransaction(deadline: deadline) { tx in try tokens.recordUses(uses, in: tx) }
    }

    /// Runs `body` in a read-only transaction that sees one snapshot throughout, within `deadline`.
    public func read<T>(deadline: ContinuousClock.Instant? = nil, _ body: (Transaction) throws -> T) throws -> T {
        try database.withTransaction(isolation: .repeatableRead, readOnly: true, deadline: deadline, body)
    }

    /// Refreshes the planner's statistics of `links` (`ANALYZE`). After a bulk import the table's recorded
    /// size lags until autovacuum's next look (a minute by default), and until then a single link write
    /// was planned as for an empty table: 24 ms at 100,000 links against 3 ms after an ANALYZE.
    public func analyzeLinks(deadline: ContinuousClock.Instant) throws {
        try database.withTransaction(deadline: deadline) { tx in _ = try tx.query("ANALYZE links") }
    }

    /// Everything the generators need, read from one snapshot.
    public func loadRegistry() throws -> Registry {
        try read { tx in try loadRegistry(in: tx) }
    }

    /// Everything the generators need, read in the caller's transaction (use REPEATABLE READ, or call it
    /// under the write lock, for a consistent view).
    public func loadRegistry(in tx: Transaction) throws -> Registry {
        Registry(
            apps: try apps.all(in: tx).map(\.value), domains: try domains.all(in: tx).map(\.value),
            routes: try routes.allByApp(in: tx), releases: try releases.all(in: tx).map(\.release))
    }
}

/// What a write body returns: its result, the resource before and after (JSON, for the audit log), and
/// optionally what to announce (default: the method and resource).
public struct WriteResult<Value> {
    public var value: Value
    public var before: SQLJSON?
    public var after: SQLJSON?
    public var change: ChangeNotice?
    /// The apps the write touched (its audit entry's `apps`): whose scoped tokens see the entry.
    public var apps: [String]?

    public init(
        _ value: Value, before: SQLJSON? = nil, after: SQLJSON? = nil, change: ChangeNotice? = nil,
        apps: [String]? = nil
    ) {
        self.value = value
        self.before = before
        self.after = after
        self.change = change
        self.apps = apps
    }
}

/// A write's value, and whether it is the recorded value of an earlier write with the same idempotency key
/// (then nothing was written).
public struct Written<Value> {
    public var value: Value
    public var replayed: Bool
}

/// The payload of a change notification: what kind of thing changed and which resources.
public struct ChangeNotice: Sendable, Hashable, Codable {
    /// E.g. the API method (`Releases.Publish`) or a resource kind.
    public var kind: String
    /// Resource names that changed; empty means "assume anything changed".
    public var ids: [String]
    /// The write token of the state the write committed (its audit entry's): a server whose snapshot is
    /// already that state has nothing to refresh. Absent from payloads of older servers.
    public var writeToken: String?

    public init(kind: String, ids: [String], writeToken: String? = nil) {
        self.kind = kind
        self.ids = ids
        self.writeToken = writeToken
    }

    /// NOTIFY payloads must stay under 8000 bytes: past that, the ids are dropped (listeners then
    /// reload everything).
    public var payload: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(self), data.count < 7_000 { return String(decoding: data, as: UTF8.self) }
        let trimmed = ChangeNotice(kind: String(kind.prefix(200)), ids: [], writeToken: writeToken)
        return String(decoding: (try? encoder.encode(trimmed)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Decodes a payload; a payload from another writer that does not decode counts as "anything changed".
    public init(payload: String) {
        self =
            (try? JSONDecoder().decode(ChangeNotice.self, from: Data(payload.utf8)))
            ?? ChangeNotice(kind: "unknown", ids: [])
    }
}
