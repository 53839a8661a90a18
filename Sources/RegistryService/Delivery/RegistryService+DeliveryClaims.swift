import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    /// `DeliveryStatus.claimedRoutes` of AASA `states`: per app, the routes the served copy's rules claim and
    /// those the current revision adds. Read from our own revisions' bytes (the served one by number, so a
    /// hand-written file, no copy or a copy not observed yet claims nothing); none for assetlinks.
    func claimedRoutes(_ states: [DeliveryState], deadline: ContinuousClock.Instant? = nil) throws(RegistryError)
        -> [DocumentKey: [DeliveryStatus.Claims]]
    {
        let snapshot = snapshot
        let older = states.filter {
            $0.key.kind == .aasa && $0.served == .revision && $0.servedRevision != $0.currentRevision
        }
        // Revisions never change; only a copy behind the current one needs a read.
        let olderBytes: [DocumentKey: Data] =
            older.isEmpty
            ? [:]
            : try mapped {
                try store.read(deadline: deadline) { tx in
                    var bytes: [DocumentKey: Data] = [:]
                    for state in older {
                        guard let number = state.servedRevision else { continue }
                        bytes[state.key] =
                            try store.revisions.get(host: state.key.host, kind: .aasa, number: number, in: tx)?.bytes
                    }
                    return bytes
                }
            }
        var answer: [DocumentKey: [DeliveryStatus.Claims]] = [:]
        for state in states where state.key.kind == .aasa {
            guard let document = snapshot.documents[state.key] else { continue }
            let current = AASARouteClaims(document: document.bytes)
            let served: AASARouteClaims
            switch state.served {
            case .revision where state.servedRevision == state.currentRevision: served = current
            case .revision: served = olderBytes[state.key].map { AASARouteClaims(document: $0) } ?? .init(details: [])
            default: served = AASARouteClaims(details: [])
            }
            let named = current.appIDs.union(served.appIDs)
            answer[state.key] = snapshot.registry.apps.compactMap { app in
                guard let ids = app.ios?.appIds, ids.contains(where: named.contains) else { return nil }
                let routes = served.routes(for: ids)
                return DeliveryStatus.Claims(
                    app: app.id, routes: routes, pending: current.routes(for: ids).filter { !routes.contains($0) })
            }
        }
        return answer
    }
}
