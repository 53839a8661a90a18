import Foundation
import RouteCore
import RouteStore

/// Builds a `Snapshot` from the database: the registry, the latest revision of every document and the
/// active tokens, all read in one consistent transaction. Nothing is generated here: the documents are the
/// stored revisions, and canOpen tables are computed when first asked for (`CanOpenTableCache`).
enum SnapshotBuilder {
    /// The database's state, and the write token it holds under `served`'s generation (nil when that entry
    /// is gone: a failover lost it).
    static func stateQuery(served generation: Int64) -> SQLQuery {
        """
        SELECT coalesce(latest.id, 0) AS generation, latest.write_token::text AS token,
            (SELECT write_token::text FROM audit WHERE id = \(generation)) AS served_token
        FROM (SELECT 1) AS one
        LEFT JOIN (SELECT id, write_token FROM audit ORDER BY id DESC LIMIT 1) AS latest ON true
        """
    }

    /// What `stateQuery` read: the database's state, and whether `served` is part of its history.
    struct Observed {
        var state: DatabaseState
        var servedToken: String?

        /// False when the served state is not in the database's history: its newest write is missing or is
        /// another write with the same audit id (a failover lost acknowledged writes).
        func contains(_ served: DatabaseState) -> Bool {
            served.generation == 0 || (served.generation <= state.generation && servedToken == served.writeToken)
        }
    }

    static func observe(served: DatabaseState, _ rows: SQLRows) throws -> Observed {
        guard let row = rows.first else {
            return Observed(state: DatabaseState(generation: 0, writeToken: nil), servedToken: nil)
        }
        return Observed(
            state: DatabaseState(
                generation: Int64(try row.int("generation")), writeToken: try row.optionalString("token")),
            servedToken: try row.optionalString("served_token"))
    }

    /// A registry a write committed, the state before that write, and the write's own token.
    struct Reuse {
        var stateBefore: DatabaseState
        var writeToken: String
        var registry: Registry
    }

    /// Builds the snapshot; `reusing` stands in for loading the registry when its write is the only one
    /// committed after `generationBefore` (every write appends exactly one audit entry).
    /// `previous` (the snapshot being replaced) lends its compiled rules when they still apply.
    static func build(
        from store: Store, reusing: Reuse? = nil, previous: Snapshot? = nil, deadline: ContinuousClock.Instant? = nil
    ) throws -> Snapshot {
        typealias Contents = (Registry, [DocumentKey: ServedDocument], [String: TokenGrant], DatabaseState)
        let (registry, documents, tokens, state): Contents = try store.read(deadline: deadline) { tx -> Contents in
            let registry: Registry
            if let reusing, try isOnlyWriteSince(reusing, tx) {
                registry = reusing.registry
            } else {
                registry = try store.loadRegistry(in: tx)
            }
            let documents = try servedDocuments(registry, previous: previous, store, tx)
            let tokens = try activeTokens(store, tx)
            let state = try observe(
                served: DatabaseState(generation: 0, writeToken: nil), tx.query(stateQuery(served: 0))
            )
            .state
            return (registry, documents, tokens, state)
        }
        return Snapshot(
            registry: registry, documents: documents, tokens: tokens, generation: state.generation,
            writeToken: state.writeToken, previous: previous)
    }

    /// True when the write `reusing` describes is the one entry after its starting state, and that state is
    /// still in the history (same token): only then is its registry the database's.
    private static func isOnlyWriteSince(_ reusing: Reuse, _ tx: Transaction) throws -> Bool {
        let before = reusing.stateBefore
        let rows = try tx.query(
            """
            SELECT count(*) AS n, min(write_token::text) AS token,
                (SELECT write_token::text FROM audit WHERE id = \(before.generation)) AS before_token
            FROM audit WHERE id > \(before.generation)
            """)
        guard let row = rows.first else { return false }
        return try row.int("n") == 1 && row.optionalString("token") == reusing.writeToken
            && (before.generation == 0 || row.optionalString("before_token") == before.writeToken)
    }

    /// The latest revision of every served domain's files. Only the heads are read for all of them; the
    /// bytes only of revisions `previous` does not already hold, so a write that changes one file reads one.
    /// A deleted domain keeps its revisions (history is immutable) but is no longer served.
    private static func servedDocuments(
        _ registry: Registry, previous: Snapshot?, _ store: Store, _ tx: Transaction
    ) throws -> [DocumentKey: ServedDocument] {
        let hosts = Set(registry.domains.map { $0.host.lowercased() }).sorted()
        var documents: [DocumentKey: ServedDocument] = [:]
        for (key, head) in try store.revisions.heads(hosts: hosts, in: tx) {
            let served = DocumentKey(host: key.host, kind: key.kind == .aasa ? .aasa : .assetlinks)
            if let held = previous?.documents[served], held.revision == head.number, held.etag == head.etag {
                documents[served] = held
            } else if let revision = try store.revisions.get(
                host: key.host, kind: key.kind, number: head.number, in: tx)
            {
                documents[served] = ServedDocument(revision)
            }
        }
        return documents
    }

    private static func activeTokens(_ store: Store, _ tx: Transaction) throws -> [String: TokenGrant] {
        var grants: [String: TokenGrant] = [:]
        for row in try tx.query(
            "SELECT id, role, encode(secret_sha256, 'hex') AS hash FROM tokens WHERE revoked_at IS NULL")
        {
            guard let role = Access(rawValue: try row.string("role")) else { continue }
            grants[try row.string("hash")] = TokenGrant(id: try row.string("id"), role: role)
        }
        return grants
    }
}

extension ServedDocument {
    init(_ revision: StoredRevision) {
        self.init(
            host: revision.host, kind: revision.kind == .aasa ? .aasa : .assetlinks, revision: revision.number,
            etag: revision.etag, bytes: revision.bytes, cause: revision.cause, createTime: revision.createTime)
    }
}
