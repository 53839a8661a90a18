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
        let states = states.filter { $0.key.kind == .aasa }
        // The revisions each document needs: the current one, and the served one when it is another of ours.
        var needed: [DocumentKey: Set<Int>] = [:]
        for state in states {
            needed[state.key] = Set([state.currentRevision] + (state.servedRevision.map { [$0] } ?? []))
        }
        var known = Dictionary(uniqueKeysWithValues: states.map { ($0.key, delivery.claims.claims($0.key)) })
        var missing: [(key: DocumentKey, number: Int)] = []
        for (key, numbers) in needed {
            for number in numbers where known[key]?[number] == nil {
                if let document = snapshot.documents[key], document.revision == number {
                    known[key, default: [:]][number] = AASARouteClaims(document: document.bytes)
                } else {
                    missing.append((key, number))
                }
            }
        }
        if !missing.isEmpty {
            let read = try mapped {
                try store.read(deadline: deadline) { tx in
                    try missing.map { wanted in
                        (
                            wanted,
                            try store.revisions.get(host: wanted.key.host, kind: .aasa, number: wanted.number, in: tx)
                        )
                    }
                }
            }
            for (wanted, revision) in read {
                known[wanted.key, default: [:]][wanted.number] = AASARouteClaims(document: revision?.bytes ?? Data())
            }
        }
        var answer: [DocumentKey: [DeliveryStatus.Claims]] = [:]
        for state in states {
            let revisions = (known[state.key] ?? [:]).filter { needed[state.key]?.contains($0.key) == true }
            delivery.claims.keep(state.key, revisions)
            let current = revisions[state.currentRevision] ?? AASARouteClaims(details: [])
            let served = state.servedRevision.flatMap { revisions[$0] } ?? AASARouteClaims(details: [])
            let named = current.appIDs.union(served.appIDs)
            answer[state.key] = snapshot.registry.apps.compactMap { app in
                guard let ids = app.ios?.appIds, ids.contains(where: named.contains) else { return nil }
                let routes = served.routes(for: ids)
                let claimed = Set(routes)
                return DeliveryStatus.Claims(
                    app: app.id, routes: routes, pending: current.routes(for: ids).filter { !claimed.contains($0) })
            }
        }
        return answer
    }
}
