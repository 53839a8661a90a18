/// Which hosts a token limited to some apps may create domains on (`Domains.Create`). An admin for every app
/// is not limited. A scoped admin may create a host only when:
/// - each app the domain serves (its `apps`, and for an alias the apps of the domain it copies) has a host
///   pattern (`App.hosts`) that matches it;
/// - no app the domain does not serve has a pattern matching it, unless every app it serves holds that same
///   pattern (shared on purpose by an admin for every app);
/// - it is not an existing domain, nor below one (`x.m.badoo.com` under `m.badoo.com`), that serves an app
///   the new domain does not.
///
/// All refusals are PERMISSION_DENIED naming `domain.host`: the same call from an admin for every app is
/// allowed, so what is missing is the caller's permission, not some state of the registry.
public enum HostOwnership {
    /// Why a scoped admin may not create `domain`, or nil. `apps` and `domains`: the registry's.
    public static func refusal(_ domain: Domain, apps: [App], domains: [Domain]) -> RegistryError? {
        let host = domain.host
        let served = appsServed(by: domain, in: domains)
        guard !served.isEmpty else {
            return refuse("a token limited to some apps creates only domains that serve one of them (domain.apps)")
        }
        let byID = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for id in served {
            let patterns = byID[id]?.hosts ?? []
            if patterns.isEmpty {
                return refuse(
                    "\(ResourceName.app(id)) has no host patterns, so a token limited to some apps creates no "
                        + "domain for it: an admin for every app sets them (routereg app update \(id) --hosts "
                        + "'*.example.com', field app.hosts)")
            }
            if !patterns.contains(where: { HostPattern.matches($0, host: host) }) {
                return refuse(
                    "\(host) is not under the host patterns of \(ResourceName.app(id)) "
                        + "(\(patterns.joined(separator: ", "))); an admin for every app sets them (app.hosts)")
            }
        }
        for other in apps where !served.contains(other.id) {
            for pattern in other.hosts ?? [] where HostPattern.matches(pattern, host: host) {
                let shared = served.allSatisfy { byID[$0]?.hosts?.contains(pattern) == true }
                if !shared {
                    return refuse("\(host) falls under \(pattern), a host pattern of \(ResourceName.app(other.id))")
                }
            }
        }
        for existing in domains where HostPattern.isAtOrUnder(host, existing.host) {
            if let other = appsServed(by: existing, in: domains).first(where: { !served.contains($0) }) {
                return refuse(
                    "\(host) is \(host == existing.host ? "" : "under ")\(ResourceName.domain(existing.host)), "
                        + "which serves \(ResourceName.app(other))")
            }
        }
        return nil
    }

    /// The apps whose sections `domain` serves: its own, and along its alias chain those of the domains it
    /// copies (an alias of badoo's domain is badoo's too, though it lists no app).
    static func appsServed(by domain: Domain, in domains: [Domain]) -> [String] {
        var apps = domain.apps
        var next = domain.aliasOf
        var hops = 0
        while let host = next, hops < 16, let target = domains.first(where: { $0.host == host }) {
            apps += target.apps.filter { !apps.contains($0) }
            next = target.aliasOf
            hops += 1
        }
        return apps
    }

    private static func refuse(_ description: String) -> RegistryError {
        RegistryError(
            .permissionDenied, "domain.host: \(description)",
            fieldViolations: [FieldViolation(field: "domain.host", description: description)])
    }
}
