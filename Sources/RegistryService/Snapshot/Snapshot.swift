import Foundation
import RouteCore

/// An immutable view of the registry that every read is answered from, so reads never touch the database.
///
/// Built after every committed write and on every change notification from other servers, swapped
/// atomically (`SnapshotHolder`), and persisted so a restart without a database still serves.
///
/// A class, not a struct: every read takes the current snapshot, and handing out one reference costs one
/// retain where copying the struct's dozen references cost a dozen, contended between worker threads.
public final class Snapshot: Sendable {
    /// The registry state the snapshot was computed from.
    public let registry: Registry
    /// The latest stored revision of each domain's documents.
    public let documents: [DocumentKey: ServedDocument]
    /// canOpen tables, computed on first use (live versions' are remembered).
    public let canOpenTables: CanOpenTableCache
    /// Compiled rule lists for `CanOpen.Check`.
    public let engine: DecisionEngine
    /// Active API tokens by the hex SHA-256 of their secret.
    public let tokens: [String: Principal]
    /// The newest audit entry the snapshot includes: every write appends one, so a larger id in the database
    /// means the snapshot is stale.
    public let generation: Int64
    /// The random token of that audit entry (nil for an empty history or a snapshot read from the file):
    /// with `generation`, an identity no other database state can have, even after a failover that lost
    /// acknowledged writes and handed their audit ids out again.
    public let writeToken: String?
    /// When it was built.
    public let builtAt: Date

    public convenience init(
        registry: Registry, documents: [DocumentKey: ServedDocument], tokens: [String: Principal],
        generation: Int64, writeToken: String? = nil, builtAt: Date = Date()
    ) {
        self.init(
            registry: registry, documents: documents, tokens: tokens, generation: generation, writeToken: writeToken,
            builtAt: builtAt, previous: nil)
    }

    /// The database state the snapshot was built from.
    public var identity: DatabaseState { DatabaseState(generation: generation, writeToken: writeToken) }

    /// A snapshot that takes `previous`'s compiled rules when only releases changed since (a publish or a
    /// retire): the engine depends on apps, domains and routes alone, and compiling it is most of a build.
    init(
        registry: Registry, documents: [DocumentKey: ServedDocument], tokens: [String: Principal],
        generation: Int64, writeToken: String? = nil, builtAt: Date = Date(), previous: Snapshot?
    ) {
        self.registry = registry
        self.documents = documents
        self.canOpenTables = CanOpenTableCache(registry: registry)
        if let previous, previous.registry.routes == registry.routes, previous.registry.apps == registry.apps,
            previous.registry.domains == registry.domains
        {
            self.engine = previous.engine
        } else {
            self.engine = DecisionEngine(registry: registry, reusing: previous?.engine)
        }
        self.tokens = tokens
        self.generation = generation
        self.writeToken = writeToken
        self.builtAt = builtAt
    }

    /// `previous` at a newer database state whose writes changed nothing it holds (link writes): everything,
    /// its computed tables and compiled rules included, is shared.
    init(advancing previous: Snapshot, to state: DatabaseState, builtAt: Date = Date()) {
        registry = previous.registry
        documents = previous.documents
        canOpenTables = previous.canOpenTables
        engine = previous.engine
        tokens = previous.tokens
        generation = state.generation
        writeToken = state.writeToken
        self.builtAt = builtAt
    }

    /// A snapshot of nothing: what a server serves before it has ever reached its database.
    public static let empty = Snapshot(
        registry: Registry(), documents: [:], tokens: [:], generation: 0)

    /// The document served for `host` (lower-cased, aliases resolved by generation), if any.
    public func document(host: String, kind: DocumentKind) -> ServedDocument? {
        documents[DocumentKey(host: host, kind: kind)]
    }
}

/// Which committed state a database is in: the newest audit entry's id and random write token.
public struct DatabaseState: Sendable, Hashable, CustomStringConvertible {
    public var generation: Int64
    public var writeToken: String?

    public init(generation: Int64, writeToken: String?) {
        self.generation = generation
        self.writeToken = writeToken
    }

    public var description: String { "generation \(generation) (write \(writeToken ?? "none"))" }
}
