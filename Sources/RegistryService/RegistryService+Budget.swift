import Foundation
import RouteCore

/// A shared domain's AASA budget (`AASABudget`): each iOS app of a domain has an equal share of Apple's
/// limit. A write is refused, FAILED_PRECONDITION to the app that wrote, when it grows one of the apps it
/// touched past its share on some domain; the neighbour's writes keep working, since its own section is what
/// it is measured by.
extension RegistryService {
    /// Throws when an app of `touched` (nil: every app) has grown past its share of a domain's AASA in
    /// `files`. Domains with one iOS app are left to the whole-document limit (and its compaction).
    func checkShares(
        _ files: [String: HostFiles], registry: Registry, index: RegistryIndex, touched: Set<String>?
    ) throws(RegistryError) {
        let before = snapshot
        let byID = Dictionary(registry.apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for host in files.keys.sorted() {
            guard let file = files[host], let target = index.target(of: host), target.apps.count >= 2,
                file.aasa.bytes.count * target.apps.count > Generator.aasaSizeLimit,
                target.apps.contains(where: { touched?.contains($0) ?? true })
            else { continue }
            let apps = target.apps.compactMap { byID[$0] }.filter { !($0.ios?.appIds.isEmpty ?? true) }
            // Below limit / apps in all, no section can be above its share: nothing to measure.
            guard apps.count >= 2, file.aasa.bytes.count * apps.count > Generator.aasaSizeLimit else { continue }
            let shares = AASABudget.shares(of: file.aasaDocument, size: file.aasa.bytes.count, apps: apps)
            for share in shares where share.bytes > share.share && (touched?.contains(share.app) ?? true) {
                // An app already above its share (a third app joined the domain, or it predates shares) may
                // still shrink or keep its section: only growth is refused.
                if let earlier = Self.budget(host: host, in: before)?.first(where: { $0.app == share.app }),
                    share.bytes <= earlier.bytes
                {
                    continue
                }
                throw AASABudget.overShare(share, host: host, apps: apps.count)
            }
        }
    }

    /// `Domains.Get`: the domain, with each app's bytes and share of its served AASA.
    public func getDomainWithBudget(_ host: String) throws(RegistryError) -> DomainDetail {
        let resource = try getDomain(host)
        return DomainDetail(resource, budget: DomainBudget(aasaBudget: Self.budget(host: host, in: snapshot)))
    }

    /// The budget of `host`'s AASA as `snapshot` serves it; nil when it serves none.
    static func budget(host: String, in snapshot: Snapshot) -> [AASAShare]? {
        let host = host.lowercased()
        guard let served = snapshot.documents[DocumentKey(host: host, kind: .aasa)],
            let file = try? JSONDecoder().decode(AASAFile.self, from: served.bytes)
        else { return nil }
        // An alias serves the rules, so the apps, of the domain it copies.
        guard let domain = RegistryIndex(snapshot.registry).target(of: host) else { return nil }
        let apps = domain.apps.compactMap { id in snapshot.registry.apps.first { $0.id == id } }
        return AASABudget.shares(of: file, size: served.bytes.count, apps: apps)
    }
}
