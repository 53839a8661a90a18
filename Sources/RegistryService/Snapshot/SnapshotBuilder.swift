import Foundation
import RouteCore
import RouteStore

/// Builds a `Snapshot` from the database: the registry, the latest revision of every document and the
/// active tokens, all read in one consistent transaction, then the derived canOpen tables.
enum SnapshotBuilder {
    static let generationQuery: SQLQuery = "SELECT coalesce(max(id), 0) AS generation FROM audit"

    static func generation(_ rows: SQLRows) throws -> Int64 {
        Int64(try rows.first?.int("generation") ?? 0)
    }

    static func build(from store: Store) throws -> Snapshot {
        typealias Contents = (Registry, [StoredRevision], [String: TokenGrant], Int64)
        let (registry, revisions, tokens, generation): Contents = try store.read { tx -> Contents in
            let registry = try store.loadRegistry(in: tx)
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
            registry: registry, documents: documents, canOpenTables: canOpenTables(registry), tokens: tokens,
            generation: generation)
    }

    /// The canOpen tables of every live version. A registry the generator refuses (e.g. an AASA above
    /// Apple's limit, which a publish could not have stored) yields none rather than no snapshot at all.
    static func canOpenTables(_ registry: Registry) -> [CanOpenKey: GeneratedCanOpenTable] {
        (try? Generator.generate(registry: registry).canOpenTables) ?? [:]
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
