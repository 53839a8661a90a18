/// What kind of method a descriptor is, declared once on it (`RPCMethodDescriptor.traits`): the dispatcher's
/// read/write handling and the batch budget, waiting on the database, snapshot-neutral rebuilds and the
/// CLI's retries all derive from it, so no list of method names can disagree with another.
public struct MethodTraits: Sendable, Hashable {
    /// Whether a call changes the registry.
    public enum Effect: Sendable, Hashable { case read, write }
    /// Where a call's answer comes from: the in-memory snapshot alone (never waits on the database), or the
    /// database.
    public enum Source: Sendable, Hashable { case snapshot, database }

    /// Read or write: a write is answered even past its deadline (it may have committed) and outside the
    /// batch budget.
    public let effect: Effect
    /// Where it reads.
    public let source: Source
    /// Whether a write changes what a snapshot holds, from which AASA, assetlinks and can-open tables are
    /// built. When only writes that leave it unchanged have committed since, a snapshot advances without a
    /// reload.
    public let changesSnapshot: Bool
    /// Whether a call's cost grows with what the caller sends (`CanOpen.Check`: its URL's length times the
    /// app's rules): a long call runs at low priority, so the costliest calls the limits allow never take
    /// CPU from ordinary ones.
    public let costGrowsWithInput: Bool

    /// A read from `source`; `costGrowsWithInput` when what it computes grows with the input.
    public static func read(from source: Source, costGrowsWithInput: Bool = false) -> MethodTraits {
        MethodTraits(effect: .read, source: source, changesSnapshot: false, costGrowsWithInput: costGrowsWithInput)
    }

    /// A write (always through the database).
    public static func write(changesSnapshot: Bool) -> MethodTraits {
        MethodTraits(effect: .write, source: .database, changesSnapshot: changesSnapshot, costGrowsWithInput: false)
    }
}

extension RPCMethodDescriptor {
    /// Whether the method changes the registry.
    public static var isWrite: Bool { traits.effect == .write }

    /// Whether a retry with the same `requestId` returns the first outcome instead of writing again: a write
    /// whose input is a `WriteRequest`. These are the methods the CLI retries and the schema gives a
    /// `requestId` (`API.RequestID.methods`).
    public static var isIdempotent: Bool { isWrite && takesRequestID }
}

extension API {
    /// The writes that change nothing a snapshot holds (links live in their own index), derived from
    /// `MethodTraits.changesSnapshot`.
    public static let snapshotNeutralWrites = all.filter { $0.isWrite && !$0.traits.changesSnapshot }.map {
        $0.name
    }
}
