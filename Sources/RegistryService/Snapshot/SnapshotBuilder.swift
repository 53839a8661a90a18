import Foundation
import RouteCore
import RouteStore

/// Builds a `Snapshot` from the database: the registry, the latest revision of every document and the
/// active tokens, all read in one consistent transaction. Nothing is generated here: the documents are the
/// stored revisions, and canOpen tables are computed when first asked for (`CanOpenTableCache`).
enum SnapshotBuilder {
    static let generationQuery: SQLQuery = "SELECT coalesce(max(id), 0) AS generation FROM audit"

    static func generation(_ rows: SQLRows) throws -> Int64 {
        Int64(try rows.first?.int("generation") ?? 0)
    }

    /// A registry a write committed, and the generation before that write.
    struct Reuse {
        var generationBefore: Int64
        var registry: Registry
    }

    /// Builds the snapshot; `reusing` stands in for loading the registry when its write is the only one
    /// committed after `generationBefore` (every write appends exactly one audit entry).
    /// `previous` (the snapshot being replaced) lends its compiled rules when they still apply.
    static func build(from store: Store, reusing: Reuse? = nil, previous: Snapshot? = nil) throws -> Snapshot {
        typealias Contents = (Registry, [DocumentKey: ServedDocument], [String: TokenGrant], Int64)
        let (registry, documents, tokens, generation): Contents = try store.read { tx -> Contents in
            let registry: Registry
            if let reusing,
                try tx.query("SELECT count(*) AS n FROM audit WHERE id > \(reusing.generationBefore)").first?.int("n")
                    == 1
            {
                registry = reusing.registry
            } else {
                registry = try store.loadRegistry(in: tx)
            }
            let documents = try servedDocuments(registry, previous: previous, store, tx)
            let tokens = try activeTokens(store, tx)
            let generation = try Self.generation(tx.query(generationQuery))
            return (registry, documents, tokens, generation)
        }
        return Snapshot(
            registry: registry, documents: documents, tokens: tokens, generation: generation, previous: previous)
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
