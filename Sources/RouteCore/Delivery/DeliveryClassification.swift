import Foundation

/// What a delivery service's copy of one document is against the registry's current revision: served,
/// which revision, how many revisions and how long behind. Pure: the delivery watch, `Associations.Delivery`,
/// the metrics and `routereg domain verify` all classify with it.
public struct DeliveryClassification: Sendable, Hashable {
    /// How many of a document's newest revisions a served copy is matched against (the current one
    /// included): a copy older than that is reported as none of ours, and a long history is never read whole.
    public static let lookBack = 200

    /// What the service's copy was last seen to be.
    public enum Copy: Sendable, Hashable {
        /// Not observed yet, or every observation failed.
        case unknown
        /// The service holds no copy (404).
        case none
        /// A document we never published (within the look-back).
        case unpublished
        /// Our revision with this number.
        case revision(Int)
    }

    public var served: DeliveryStatus.Served
    public var servedRevision: Int?
    /// 0 current, N behind, -1 none of ours (or no copy); nil unknown.
    public var revisionsBehind: Int?
    /// When the oldest revision the service has not shown was created (the current one's when it serves
    /// none of ours); nil when current or unknown.
    public var behindSince: Date?

    public init(
        served: DeliveryStatus.Served, servedRevision: Int? = nil, revisionsBehind: Int? = nil,
        behindSince: Date? = nil
    ) {
        self.served = served
        self.servedRevision = servedRevision
        self.revisionsBehind = revisionsBehind
        self.behindSince = behindSince
    }

    /// Classifies `copy` against `current` (created at `currentTime`); `revisionTime` gives a revision's
    /// creation time by number (asked only for the one after a served older revision).
    public static func classify(
        _ copy: Copy, current: Int, currentTime: Date, revisionTime: (Int) -> Date? = { _ in nil }
    ) -> DeliveryClassification {
        switch copy {
        case .unknown:
            return DeliveryClassification(served: .unknown)
        case .none:
            return DeliveryClassification(served: .none, revisionsBehind: -1, behindSince: currentTime)
        case .unpublished:
            return DeliveryClassification(served: .unpublished, revisionsBehind: -1, behindSince: currentTime)
        case .revision(let number):
            let behind = max(0, current - number)
            return DeliveryClassification(
                served: .revision, servedRevision: number, revisionsBehind: behind,
                behindSince: behind == 0 ? nil : revisionTime(number + 1) ?? currentTime)
        }
    }

    /// Seconds behind at `now`: 0 when current, nil when unknown.
    public func secondsBehind(at now: Date, currentTime: Date) -> Double? {
        guard let behind = revisionsBehind else { return nil }
        if behind == 0 { return 0 }
        return max(0, now.timeIntervalSince(behindSince ?? currentTime))
    }

    /// The revision numbers a served copy is compared with, newest first: the current one and the
    /// `lookBack - 1` before it.
    public static func candidates(current: Int) -> StrideThrough<Int> {
        stride(from: current, through: max(1, current - lookBack + 1), by: -1)
    }

    /// Whether a revision is old enough to be outside the look-back of `current`.
    public static func isBeyondLookBack(_ number: Int, current: Int) -> Bool { number <= current - lookBack }

    /// The newest candidate revision whose meaning is `meaning` (`meaningOf` gives a revision's, nil when it
    /// has none), or nil: none of ours.
    public static func match(meaning: String, current: Int, meaningOf: (Int) throws -> String?) rethrows -> Int? {
        for number in candidates(current: current) where try meaningOf(number) == meaning { return number }
        return nil
    }
}
