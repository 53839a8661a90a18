import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    /// What the registry holds for `app` as `routereg plan` reads it through the API (`Apps.Get`,
    /// `Domains.List`, `Routes.List`), read in `tx`: the same resources, so the same fingerprint.
    func manifestState(app: String, in tx: Transaction) throws -> ManifestState {
        guard let stored = try store.apps.get(app, in: tx) else { return ManifestState(appID: app, app: nil) }
        let domains = try store.domains.all(in: tx).filter { $0.value.apps.contains(app) }.map(Self.resource)
        let managed = try store.routes.management(app: app, in: tx)
        let routes = try store.routes.all(app: app, in: tx).enumerated().map {
            Self.resource($1, app: app, position: $0, managedBy: managed[$1.value.id])
        }
        return ManifestState(appID: app, app: Self.resource(stored), domains: domains, routes: routes)
    }

    /// A manifest sent as params: routes and domains keyed by id and host, each given once (a file read by
    /// `Manifest(strictJSON:)` is checked already; params are not).
    static func checkUnique(_ manifest: Manifest) throws(RegistryError) {
        do { try manifest.checkUnique() } catch {
            throw RegistryError.invalidArgument(field: "manifest.\(error.path)", error.reason)
        }
    }

    /// `Manifests.Plan`: the plan of `manifest` against the database, as `routereg plan --json` prints it,
    /// with the rules each live version would gain or lose (read in the same transaction, nothing written).
    public func planManifest(_ manifest: Manifest, prune: Bool) throws(RegistryError) -> ManifestPlan {
        try Self.checkUnique(manifest)
        return try mapped {
            try store.read { tx in
                let state = try manifestState(app: manifest.app.id, in: tx)
                var plan = ManifestPlan(manifest: manifest, state: state, prune: prune)
                if state.app != nil && plan.changesRules {
                    let releases = try store.releases.all(app: manifest.app.id, in: tx).map(\.release)
                    plan.addLiveLinks(manifest: manifest, state: state, releases: releases)
                }
                return plan
            }
        }
    }

    /// `Manifests.Apply`: the manifest's route changes as one write (see `API.ManifestsApply`). The plan is
    /// computed again inside the write, under the write lock, from the state the write changes: what is
    /// checked against the basis is exactly what is applied.
    public func applyManifest(_ params: API.ManifestsApply.Params, by caller: Caller) throws(RegistryError)
        -> API.ManifestsApply.Output
    {
        let manifest = params.manifest
        let app = manifest.app.id
        try Self.checkUnique(manifest)
        for (index, route) in manifest.routes.enumerated() {
            try ModelValidation.route(route.route(), field: "manifest.routes[\(index)]")
        }
        // A replica refuses every write, this one included, before reading anything (see `write`).
        if replica.withLock({ $0 }) == nil, let unchanged = try unchangedApply(params, by: caller) { return unchanged }
        let about = app + (params.source.map { " from \($0)" } ?? "")
        return try write(caller, method: API.ManifestsApply.name, resource: .routes(app: app), about: about) { tx in
            let exists = try self.store.apps.get(app, in: tx) != nil
            guard exists || caller.isAdmin else {
                throw RegistryError.failedPrecondition(
                    "\(ResourceName.app(app)) does not exist: an admin creates it (Apps.Create, or an admin's "
                        + "Manifests.Apply) before its manifest's routes are applied")
            }
            let state = try self.manifestState(app: app, in: tx)
            let plan = ManifestPlan(manifest: manifest, state: state, prune: params.prune ?? false)
            try Self.checkReviewed(plan, basis: params.basis, changes: params.changes)
            if !caller.isAdmin { try Self.checkApplicable(plan) }
            if params.allowBreaking != true {
                let releases = try self.store.releases.all(app: app, in: tx).map(\.release)
                let breaking = plan.breakingRemovals(in: state, releases: releases)
                if !breaking.isEmpty {
                    throw RegistryError.failedPrecondition(
                        "the prune would drop routes live versions open: "
                            + breaking.map(\.text).joined(separator: "; ")
                            + ". Keep them in the manifest, or apply with allowBreaking")
                }
            }
            let touched = caller.isAdmin ? try self.applyAdminChanges(plan, manifest: manifest, by: caller, in: tx) : []
            let routes = try self.applyRoutes(plan, manifest: manifest, state: state, source: params.source, in: tx)
            let after = try self.manifestState(app: app, in: tx)
            let record = ManifestApplyRecord(
                source: params.source, basis: plan.basis.fingerprint, fingerprint: after.fingerprint,
                summary: plan.summaryLine, lines: plan.changes.map(\.line))
            return Mutation(
                value: API.ManifestsApply.Output(plan: plan, fingerprint: after.fingerprint), before: nil,
                // App or domain changes: the registry is read again to generate from (no incremental change).
                after: record, change: plan.changes.allSatisfy { $0.kind == .route } ? .routes(app: app, routes) : nil,
                apps: Array(Set([app] + touched)).sorted())
        }.value
    }

    /// The answer of an apply that would change nothing, read without opening a write: no audit entry, no
    /// revision, no snapshot rebuild for a CI job that applies on every merge. Nil, and the write decides
    /// (refusing or applying), when the plan has changes, a route the manifest lists is not managed yet (the
    /// write adopts it), the reviewed plan differs, or `requestId` already has an outcome (the write replays it,
    /// or refuses the key if it came with other params).
    private func unchangedApply(_ params: API.ManifestsApply.Params, by caller: Caller) throws(RegistryError)
        -> API.ManifestsApply.Output?
    {
        let manifest = params.manifest
        return try mapped {
            try store.read(deadline: caller.deadline) { tx in
                if let key = caller.idempotencyKey,
                    try store.writeRequests.recorded(
                        actor: caller.actor, method: API.ManifestsApply.name, requestID: key, in: tx) != nil
                {
                    return nil
                }
                let state = try manifestState(app: manifest.app.id, in: tx)
                let plan = ManifestPlan(manifest: manifest, state: state, prune: params.prune ?? false)
                let listed = Set(manifest.routes.map(\.id))
                guard state.app != nil, !plan.hasChanges, params.changes?.isEmpty ?? true,
                    params.basis.map({ $0.fingerprint == plan.basis.fingerprint }) ?? true,
                    state.routes.allSatisfy({ $0.managedBy != nil || !listed.contains($0.route.id) })
                else { return nil }
                return API.ManifestsApply.Output(plan: plan, fingerprint: state.fingerprint)
            }
        }
    }

    /// Refuses a plan that is not the one reviewed: the registry moved since `basis` (naming what moved), or
    /// the changes differ from `changes` (e.g. a prune nobody reviewed).
    static func checkReviewed(
        _ plan: ManifestPlan, basis: ManifestPlan.Basis?, changes: [ManifestPlan.Change]?
    ) throws(RegistryError) {
        let differences = changes.map { plan.differences(from: $0) } ?? []
        if let basis, basis.fingerprint != plan.basis.fingerprint {
            var moved: [String] = []
            if basis.appExists != plan.basis.appExists { moved.append("the app was created or deleted") }
            if basis.domains != plan.basis.domains { moved.append("domains \(basis.domains) → \(plan.basis.domains)") }
            if basis.routes != plan.basis.routes { moved.append("routes \(basis.routes) → \(plan.basis.routes)") }
            moved += differences
            if moved.isEmpty {
                moved.append(
                    "a resource changed in a way the plan does not show (a switch-off, or a route the manifest "
                        + "leaves out)")
            }
            throw RegistryError.failedPrecondition(
                "the registry moved since the plan was computed (basis \(basis.fingerprint.prefix(19))…, now "
                    + "\(plan.basis.fingerprint.prefix(19))…): \(moved.joined(separator: "; ")). Nothing was "
                    + "applied: plan again and review the new plan")
        }
        if !differences.isEmpty {
            throw RegistryError.failedPrecondition(
                "the plan is not the one reviewed: \(differences.joined(separator: "; ")). Nothing was applied: "
                    + "plan again with the same options")
        }
    }

    /// Refuses a releaser's apply the changes only an admin's writes (`applyAdminChanges`): the app's fields
    /// and its domains are an admin's (`Apps.Update`, `Domains.Create`), and a releaser's apply must not
    /// escalate to them.
    static func checkApplicable(_ plan: ManifestPlan) throws(RegistryError) {
        let others = plan.changes.filter { $0.kind != .route }
        guard !others.isEmpty else { return }
        throw RegistryError.failedPrecondition(
            "the manifest changes what only an admin's Manifests.Apply writes: "
                + others.map(\.line).joined(separator: "; ")
                + ". An admin applies this manifest, or the app fields with Apps.Update and domains with "
                + "Domains.Create; nothing was applied")
    }

    /// Writes the plan's route changes in `tx`: removals, additions (last, then put in place), changes (a
    /// route keeps its switch-offs), the manifest's order, and the manifest marker on every route it lists.
    /// Returns the app's routes afterwards, in order.
    private func applyRoutes(
        _ plan: ManifestPlan, manifest: Manifest, state: ManifestState, source: String?, in tx: Transaction
    ) throws -> [Route] {
        let app = manifest.app.id
        let wanted = Dictionary(uniqueKeysWithValues: manifest.routes.map { ($0.id, $0) })
        let current = Dictionary(uniqueKeysWithValues: state.routes.map { ($0.route.id, $0.route) })
        var removed: Set<String> = []
        var added: [Route] = []
        var changed: [Route] = []
        for change in plan.changes where change.kind == .route {
            switch change.action {
            case .remove: removed.insert(change.id)
            case .add: added.append(wanted[change.id]!.route())
            case .change: changed.append(wanted[change.id]!.route(switchedOff: current[change.id]?.switchedOff ?? [:]))
            case .move: break
            }
        }
        for id in removed.sorted() { try store.routes.delete(app: app, id: id, expectedEtag: nil, in: tx) }
        let index = Dictionary(uniqueKeysWithValues: manifest.routes.enumerated().map { ($1.id, $0) })
        try checkSubstitutionBound(
            (added + changed).map { ($0, "manifest.routes[\(index[$0.id]!)]") }, app: app, in: tx)
        if !added.isEmpty { try store.routes.createMany(added, app: app, in: tx) }
        for route in changed { _ = try store.routes.update(route, app: app, expectedEtag: nil, in: tx) }
        let order = ManifestPlan.order(
            manifest: manifest.routes.map(\.id), current: state.routes.map(\.route.id), removed: removed)
        var routes = try store.routes.all(app: app, in: tx)
        if routes.map(\.value.id) != order { routes = try store.routes.reorder(app: app, ids: order, in: tx) }
        try store.routes.manage(app: app, ids: manifest.routes.map(\.id), source: source, in: tx)
        return routes.map(\.value)
    }
}

/// The audit entry of an apply: where the manifest came from, the state it was applied to and left, and the
/// plan's lines, so the log reads as the review did.
struct ManifestApplyRecord: Encodable {
    var source: String?
    /// The fingerprint of the state the plan was computed from, and of the state after.
    var basis: String
    var fingerprint: String
    var summary: String
    var lines: [String]
}
