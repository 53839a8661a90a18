import Foundation
import RouteCore
import RouteStore
import Synchronization

/// One document's delivery, computed from the latest observations and the registry's current revision:
/// what the metrics and `Associations.Delivery` report.
public struct DeliveryState: Sendable, Hashable {
    public var key: DocumentKey
    public var currentRevision: Int
    public var currentRevisionTime: Date
    public var served: DeliveryStatus.Served
    public var servedRevision: Int?
    public var servingSince: Date?
    /// 0 current, N behind, -1 none of ours; nil unknown.
    public var revisionsBehind: Int?
    /// When the oldest revision the service has not shown was created; nil when current or unknown.
    public var behindSince: Date?
    public var last: DeliveryObservation?

    /// The service that delivers this kind of document.
    public static func serviceName(_ kind: DocumentKind) -> String {
        kind == .aasa ? "apple-cdn" : "google-digital-asset-links"
    }

    /// Seconds behind at `now`: 0 when current, nil when unknown.
    public func secondsBehind(at now: Date = Date()) -> Double? {
        classification.secondsBehind(at: now, currentTime: currentRevisionTime)
    }

    var classification: DeliveryClassification {
        DeliveryClassification(
            served: served, servedRevision: servedRevision, revisionsBehind: revisionsBehind,
            behindSince: behindSince)
    }

    /// The state of `document` given its latest observations and, by number, the creation time of the
    /// revisions that matter (the one after the served revision).
    static func compute(
        document: ServedDocument, latest: DeliveryLatest?, revisionTimes: [Int: Date]
    ) -> DeliveryState {
        let classified = DeliveryClassification.classify(
            latest?.copy ?? .unknown, current: document.revision, currentTime: document.createTime,
            revisionTime: { revisionTimes[$0] })
        return DeliveryState(
            key: DocumentKey(host: document.host, kind: document.kind), currentRevision: document.revision,
            currentRevisionTime: document.createTime, served: classified.served,
            servedRevision: classified.servedRevision, servingSince: latest?.content?.servingSince,
            revisionsBehind: classified.revisionsBehind, behindSince: classified.behindSince, last: latest?.last)
    }

    /// The API's view.
    public var status: DeliveryStatus {
        DeliveryStatus(
            host: key.host, kind: key.kind, service: Self.serviceName(key.kind), currentRevision: currentRevision,
            currentRevisionTime: Timestamp.string(currentRevisionTime), served: served,
            servedRevision: servedRevision, servingSince: servingSince.map(Timestamp.string),
            revisionsBehind: revisionsBehind, secondsBehind: secondsBehind(),
            lastObservationTime: last.map { Timestamp.string($0.observedAt) }, lastOutcome: last?.outcome.rawValue,
            lastHttpStatus: last?.httpStatus, lastError: last?.error)
    }
}

extension DeliveryLatest {
    /// What the service's copy was last seen to be: the latest observation that told (a failed fetch leaves
    /// the last known state standing).
    var copy: DeliveryClassification.Copy {
        guard let content else { return .unknown }
        if content.outcome == .notFound { return .none }
        return content.matchedRevision.map { .revision($0) } ?? .unpublished
    }
}

/// The delivery states this server last read from the database (whichever server of the fleet observed):
/// what `/metrics` reports without touching the database. Refreshed by `DeliveryWatch`.
public final class DeliveryBoard: Sendable {
    private let states = Mutex<[DeliveryState]>([])
    /// What `Associations.Delivery`'s `claimedRoutes` is computed from.
    let claims = DeliveryClaimsMemo()

    public init() {}

    /// Sorted by host, then kind.
    public var current: [DeliveryState] { states.withLock { $0 } }

    func replace(_ new: [DeliveryState]) { states.withLock { $0 = new } }
}

extension RegistryService {
    /// Reads the latest observations and computes each current document's delivery (`host`/`kind` filter it).
    public func deliveryStates(
        host: String? = nil, kind: DocumentKind? = nil, deadline: ContinuousClock.Instant? = nil
    ) throws(RegistryError) -> [DeliveryState] {
        let snapshot = snapshot
        let documents = snapshot.documents.values.filter {
            (host == nil || $0.host == host) && (kind == nil || $0.kind == kind)
        }.sorted { ($0.host, $0.kind.rawValue) < ($1.host, $1.kind.rawValue) }
        guard !documents.isEmpty else { return [] }
        return try mapped {
            try store.read(deadline: deadline) { tx in
                let latest = try store.delivery.latest(hosts: Array(Set(documents.map(\.host))).sorted(), in: tx)
                return try documents.map { document in
                    let key = DocumentKey(host: document.host, kind: document.kind)
                    var times: [Int: Date] = [:]
                    if let matched = latest[key]?.content?.matchedRevision, matched < document.revision {
                        times = try store.delivery.revisionTimes(host: key.host, kind: key.kind, in: tx)
                    }
                    return DeliveryState.compute(document: document, latest: latest[key], revisionTimes: times)
                }
            }
        }
    }

    /// `Associations.Delivery`.
    public func delivery(_ input: API.AssociationsDelivery.Input) throws(RegistryError)
        -> API.AssociationsDelivery.Output
    {
        let host = input.host?.lowercased()
        if let host, !snapshot.registry.domains.contains(where: { $0.host == host }) {
            throw RegistryError.notFound(.domain(host))
        }
        let states = try deliveryStates(host: host, kind: input.kind)
        let claims = try claimedRoutes(states)
        return API.AssociationsDelivery.Output(
            documents: states.map { state in
                var status = state.status
                status.claimedRoutes = claims[state.key]
                return status
            })
    }
}
