import Foundation
import RouteCore
import RouteStore

/// Builds a `Snapshot` from the database: the registry, the latest revision of every document and the
/// active tokens, all read in one consistent transaction. Nothing is generated here: the documents are the
/// stored revisions, and canOpen tables are computed when first asked for (`CanOpenTableCache`).
enum SnapshotBuilder {
    /// What the audit log read with the served generation (`AuditRepository.head(withTokenOf:)`) says: the
    /// database's state, and whether `served` is part of its history.
    struct Observed {
        var state: DatabaseState
        /// The write token the database holds under the served generation (nil when that entry is gone: a
        /// failover lost it).
        var servedToken: String?

        init(_ head: AuditHead) {
            state = DatabaseState(generation: head.id, writeToken: head.writeToken)
            servedToken = head.askedToken
        }

        /// False when the served state is not in the database's history: its newest write is missing or is
        /// another write with the same audit id (a failover lost acknowledged writes).
        func contains(_ served: DatabaseState) -> Bool {
            served.generation == 0 || (served.generation <= state.generation && servedToken == served.writeToken)
        }
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
        typealias Contents = (Registry, [DocumentKey: ServedDocument], [String: Principal], DatabaseState)
        let (registry, documents, tokens, state): Contents = try store.read(deadline: deadline) { tx -> Contents in
            let registry: Registry
            if let reusing, try isOnlyWriteSince(reusing, store, tx) {
                registry = reusing.registry
            } else {
                registry = try store.loadRegistry(in: tx)
            }
            let documents = try servedDocuments(registry, previous: previous, store, tx)
            let tokens = try activeTokens(store, tx)
            let state = Observed(try store.audit.head(withTokenOf: 0, in: tx)).state
            return (registry, documents, tokens, state)
        }
        return Snapshot(
            registry: registry, documents: documents, tokens: tokens, generation: state.generation,
            writeToken: state.writeToken, previous: previous)
    }

    /// True when the write `reusing` describes is the one entry after its starting state, and that state is
    /// still in the history (same token): only then is its registry the database's.
    private static func isOnlyWriteSince(_ reusing: Reuse, _ store: Store, _ tx: Transaction) throws -> Bool {
        let before = reusing.stateBefore
        let tail = try store.audit.tail(after: before.generation, in: tx)
        return tail.count == 1 && tail.writeToken == reusing.writeToken
            && (before.generation == 0 || tail.startToken == before.writeToken)
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
            if let held = previous?.documents[key], held.revision == head.number, held.etag == head.etag {
                documents[key] = held
            } else if let revision = try store.revisions.get(
                host: key.host, kind: key.kind, number: head.number, in: tx)
            {
                documents[key] = ServedDocument(revision)
            }
        }
        return documents
    }

    private static func activeTokens(_ store: Store, _ tx: Transaction) throws -> [String: Principal] {
        try store.tokens.active(in: tx).mapValues {
            Principal(id: $0.id, role: $0.role, apps: $0.apps, expiresAt: $0.expiresAt)
        }
    }
}

extension ServedDocument {
    init(_ revision: StoredRevision) {
        self.init(
            host: revision.host, kind: revision.kind, revision: revision.number,
            etag: revision.etag, bytes: revision.bytes, cause: revision.cause, createTime: revision.createTime)
    }
}
