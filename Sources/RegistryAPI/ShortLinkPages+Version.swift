extension ShortLinkPages {
    /// What a prepared answer was made from: the snapshot (`SnapshotHolder.installCount`: the app's name, store
    /// id and fallback marker) and the link index (`LinkIndex.version`). Both only grow, so ordering by the
    /// snapshot and then the links puts a pair read later after one read before; `VersionedMemo` serves an
    /// answer only for the exact pair it was made for.
    struct Version: Comparable, Sendable {
        var snapshot: UInt64 = 0
        var links: UInt64 = 0

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.snapshot, lhs.links) < (rhs.snapshot, rhs.links)
        }
    }
}
