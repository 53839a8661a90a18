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
        typealias Contents = (Registry, [StoredRevision], [String: TokenGrant], Int64)
        let (registry, revisions, tokens, generation): Contents = try store.read { tx -> Contents in
            let registry: Registry
            if let reusing,
                try tx.query("SELECT count(*) AS n FROM audit WHERE id > \(reusing.generationBefore)").first?.int("n")
                    == 1
            {
                registry = reusing.registry
            } else {
                registry = try store.loadRegistry(in: tx)
            }
            let revisions = try store.revisions.allLatest(in: tx)
            let tokens = try activeTokens(store, tx)
            let generation = try Self.generation(tx.query(generationQuery))
            return (registry, revisions, tokens, generation)
        }
        // A deleted domain keeps its revisions (history is immutable) but is no longer served.
        let hosts = Set(registry.domains.map { $0.host.lowercased() })
        var documents: [DocumentKey: ServedDocument] = [:]
        for revision in revisions where hosts.contains(revision.host) {
            let document = ServedDocument(revision)
            documents[DocumentKey(host: document.host, kind: document.kind)] = document
        }
        return Snapshot(
            registry: registry, documents: documents, tokens: tokens, generation: generation, previous: previous)
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
