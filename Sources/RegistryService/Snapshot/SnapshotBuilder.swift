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

    /// A registry a write committed, the state before that write, and the write's own token; with the
    /// newest revision of every served file after it and the revisions it appended.
    struct Reuse {
        var stateBefore: DatabaseState
        var writeToken: String
        var registry: Registry
        var heads: [DocumentKey: RevisionHead]
        var appended: [DocumentKey: ServedDocument]
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
            let documents: [DocumentKey: ServedDocument]
            if let reusing, try isOnlyWriteSince(reusing, store, tx) {
                registry = reusing.registry
                documents = try servedDocuments(
                    heads: reusing.heads, previous: previous, appended: reusing.appended, store, tx)
            } else {
                registry = try store.loadRegistry(in: tx)
                let hosts = Set(registry.domains.map { $0.host.lowercased() }).sorted()
                documents = try servedDocuments(
                    heads: try store.revisions.heads(hosts: hosts, in: tx), previous: previous, store, tx)
            }
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

    /// The latest revision of every served domain's files, given their `heads`: the bytes are read only of
    /// revisions neither `previous` nor `appended` (a write's own) holds, so a write that changes one file
    /// reads none. A deleted domain keeps its revisions (history is immutable) but is no longer served.
    private static func servedDocuments(
        heads: [DocumentKey: RevisionHead], previous: Snapshot?, appended: [DocumentKey: ServedDocument] = [:],
        _ store: Store, _ tx: Transaction
    ) throws -> [DocumentKey: ServedDocument] {
        var documents: [DocumentKey: ServedDocument] = [:]
        for (key, head) in heads {
            if let held = previous?.documents[key], held.revision == head.number, held.etag == head.etag {
                documents[key] = held
            } else if let written = appended[key], written.revision == head.number, written.etag == head.etag {
                documents[key] = written
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
