import Foundation
import RouteCore
import RouteStore

/// Scoped tokens: what a call reaches (`CallScope`, declared once per method on its descriptor) checked
/// against the caller's apps before the method's handler runs. The RPC layer calls `authorize` for every
/// method; list methods are also handed the caller's apps (`Principal.apps`) and filter by them.
extension RegistryService {
    /// Refuses `principal` a call of `method` that reaches `scope`, PERMISSION_DENIED naming the app outside
    /// its apps. `writes`: the method changes state (a shared domain then needs every one of its apps, where
    /// reading it needs one). A resource that does not exist passes: the handler answers NOT_FOUND.
    public func authorize(
        _ principal: Principal, _ scope: CallScope, method: String, writes: Bool
    ) throws(RegistryError) {
        guard let apps = principal.apps else { return }
        func refuse(_ app: String) -> RegistryError {
            RegistryError(
                .permissionDenied,
                "\(method) on \(ResourceName.app(app)) is outside the apps of token \(principal.id) "
                    + "(\(apps.joined(separator: ", ")))")
        }
        switch scope {
        case .unscoped:
            return
        case .app(let app), .list(.some(let app)):
            if !principal.covers(app: app) { throw refuse(app) }
        case .list(.none):
            return
        case .apps(let reached):
            if let outside = reached.first(where: { !principal.covers(app: $0) }) { throw refuse(outside) }
        case .newDomain(let reached, let alias):
            if let outside = reached.first(where: { !principal.covers(app: $0) }) { throw refuse(outside) }
            if let alias { try authorize(principal, .domain(alias), method: method, writes: true) }
        case .domain(let host):
            let host = host.lowercased()
            guard let domain = snapshot.registry.domains.first(where: { $0.host.lowercased() == host }) else { return }
            if writes {
                if let outside = domain.apps.first(where: { !principal.covers(app: $0) }) { throw refuse(outside) }
            } else if !domain.apps.contains(where: principal.covers(app:)), let first = domain.apps.first {
                throw refuse(first)
            }
        case .link(let domain, let code):
            guard let link = links.link(domain: domain.lowercased(), code: code) else { return }
            if !principal.covers(app: link.app) { throw refuse(link.app) }
        case .token(let id):
            let stored = try mapped { try store.read { tx in try store.tokens.get(id, in: tx) } }
            guard let stored else { return }
            guard principal.covers(apps: stored.apps) else {
                guard let held = stored.apps else {
                    throw RegistryError(
                        .permissionDenied,
                        "\(ResourceName.token(id)) reaches every app; only a token for every app may manage it")
                }
                throw refuse(held.first { !principal.covers(app: $0) } ?? id)
            }
        case .newToken(let reached):
            guard let reached else {
                throw RegistryError(
                    .permissionDenied,
                    "token \(principal.id) is limited to some apps (\(apps.joined(separator: ", "))): "
                        + "a new token must name its apps (token.apps) among them")
            }
            if let outside = reached.first(where: { !principal.covers(app: $0) }) { throw refuse(outside) }
        }
    }
}
