import RouteCore
import Synchronization

/// The routes our AASA revisions claim, by document and revision number. Revisions never change, so each is
/// read and parsed once, not on every `Associations.Delivery`; per document only the revisions last asked for
/// (the current one and the served one) are kept.
final class DeliveryClaimsMemo: Sendable {
    private let entries = Mutex<[DocumentKey: [Int: AASARouteClaims]]>([:])

    /// What is known of `key`'s revisions.
    func claims(_ key: DocumentKey) -> [Int: AASARouteClaims] { entries.withLock { $0[key] ?? [:] } }

    /// Keeps `revisions` as all that is known of `key`.
    func keep(_ key: DocumentKey, _ revisions: [Int: AASARouteClaims]) {
        entries.withLock { $0[key] = revisions }
    }
}
