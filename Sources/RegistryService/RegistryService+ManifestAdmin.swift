import Foundation
import RouteCore
import RouteStore

/// An admin's `Manifests.Apply`: the app's fields and the manifest's domains written in the apply's own
/// transaction, with the checks `Apps.Create`/`Apps.Update` and `Domains.Create` make, before the routes (which
/// may name the domains). A releaser's apply never reaches here (`checkApplicable` refuses it first). Nothing
/// is ever deleted: a domain the manifest leaves out may serve other apps, and an app goes with `Apps.Delete`.
extension RegistryService {
    /// Writes the plan's app and domain changes in `tx`; returns the apps of the domains it wrote (for the
    /// audit entry: whose tokens see it).
    func applyAdminChanges(_ plan: ManifestPlan, manifest: Manifest, by caller: Caller, in tx: Transaction) throws
        -> [String]
    {
        var touched: Set<String> = []
        if plan.changes.contains(where: { $0.kind == .app }) { try writeApp(manifest.app, by: caller, in: tx) }
        let wanted = Dictionary(
            manifest.domains.enumerated().map { ($1.host.lowercased(), ($0, $1)) },
            uniquingKeysWith: { first, _ in first })
        for change in plan.changes where change.kind == .domain {
            guard let (index, entry) = wanted[change.id.lowercased()] else { continue }
            touched.formUnion(
                try writeDomain(entry, app: manifest.app.id, field: "manifest.domains[\(index)]", by: caller, in: tx))
        }
        return touched.sorted()
    }

    /// Creates or updates the app as `Apps.Create`/`Apps.Update` would: valid, host patterns only from an
    /// admin for every app, no name another app holds. The manifest's app is written as it is, so that the
    /// next plan shows no change.
    private func writeApp(_ app: App, by caller: Caller, in tx: Transaction) throws {
        try ModelValidation.app(app, field: "manifest.app")
        let before = try store.apps.get(app.id, in: tx)
        try Self.requireEveryApp(
            caller, shareNames: false, hostsChanged: (app.hosts ?? []) != (before?.value.hosts ?? []))
        if let conflict = try nameConflict(app, before: before?.value, in: tx) { throw conflict.error }
        if before == nil {
            _ = try store.apps.create(app, in: tx)
        } else {
            _ = try store.apps.update(app, expectedEtag: nil, in: tx)
        }
    }

    /// Creates the domain for `app` as `Domains.Create` would, or updates the settings of one that lists
    /// `app` (its app list kept); returns its apps. A shared domain's settings are every one of its apps'
    /// concern, so a token limited to some apps may not change them.
    private func writeDomain(
        _ entry: ManifestDomain, app: String, field: String, by caller: Caller, in tx: Transaction
    ) throws -> [String] {
        let host = entry.host.lowercased()
        let existing = try store.domains.get(host, in: tx)
        if let existing, !existing.value.apps.contains(app) {
            throw RegistryError.failedPrecondition(
                "\(ResourceName.domain(host)) exists and does not serve \(ResourceName.app(app)): a manifest "
                    + "writes only its own app's domains (\(field))")
        }
        let domain = Domain(
            host: host, apps: existing?.value.apps ?? [app], aliasOf: entry.aliasOf?.lowercased(),
            defaults: entry.defaults, substitutionVariables: entry.substitutionVariables,
            legacyPaths: entry.legacyPaths, links: entry.links, longLinkPreviews: entry.longLinkPreviews)
        try ModelValidation.domain(domain, field: field)
        if let outside = domain.apps.first(where: { !(caller.apps?.contains($0) ?? true) }) {
            throw RegistryError(
                .permissionDenied,
                "\(ResourceName.domain(host)) also serves \(ResourceName.app(outside)): only a token for every "
                    + "one of its apps may change it (\(field))")
        }
        try checkAliasTarget(domain, field: field, in: tx)
        if existing == nil, !caller.isForEveryApp,
            let refusal = HostOwnership.refusal(
                domain, apps: try store.apps.all(in: tx).map(\.value),
                domains: try store.domains.all(in: tx).map(\.value))
        {
            throw refusal
        }
        try checkSubstitutionBound(domain, in: tx)
        if existing == nil {
            _ = try store.domains.create(domain, in: tx)
        } else {
            _ = try store.domains.update(domain, expectedEtag: nil, in: tx)
        }
        return domain.apps
    }

    /// The alias target exists and the chain from it does not come back to the domain (an update could
    /// close a loop that a create cannot).
    private func checkAliasTarget(_ domain: Domain, field: String, in tx: Transaction) throws {
        var next = domain.aliasOf
        var hops = 0
        while let target = next {
            guard target != domain.host else {
                throw RegistryError.invalidArgument(
                    field: "\(field).aliasOf", "\(ResourceName.domain(domain.host)) would be an alias of itself")
            }
            guard let stored = try store.domains.get(target, in: tx) else {
                throw RegistryError(
                    .failedPrecondition, "\(ResourceName.domain(target)) does not exist",
                    fieldViolations: [
                        FieldViolation(
                            field: "\(field).aliasOf", description: "\(ResourceName.domain(target)) does not exist")
                    ])
            }
            hops += 1
            if hops > 16 { break }
            next = stored.value.aliasOf?.lowercased()
        }
    }
}
