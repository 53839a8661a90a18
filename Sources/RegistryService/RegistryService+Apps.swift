import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    static func resource(_ stored: Stored<App>) -> Resource<App> {
        Resource(stored.value, meta: stored.meta(named: .app(stored.value.id)))
    }

    static func resource(_ stored: Stored<Domain>) -> Resource<Domain> {
        Resource(stored.value, meta: stored.meta(named: .domain(stored.value.host)))
    }

    /// `Apps.Create`. `shareNames`: the app may hold names another app holds (`NameOwnership`); only a
    /// caller for every app may send it, or give the app host patterns.
    public func createApp(_ app: App, shareNames: Bool = false, by caller: Caller) throws(RegistryError)
        -> Resource<App>
    {
        try ModelValidation.app(app)
        try Self.requireEveryApp(caller, shareNames: shareNames, hostsChanged: !(app.hosts ?? []).isEmpty)
        return try write(
            caller, method: API.AppsCreate.name, resource: .app(app.id), about: app.id
        ) {
            tx in
            if !shareNames, let conflict = try self.nameConflict(app, before: nil, in: tx) { throw conflict.error }
            let stored = try self.store.apps.create(app, in: tx)
            return Mutation(value: Self.resource(stored), before: nil, after: stored.value)
        }.value
    }

    public func getApp(_ id: String) throws(RegistryError) -> Resource<App> {
        try mapped {
            guard let stored = try store.read({ tx in try store.apps.get(id, in: tx) }) else {
                throw RegistryError.notFound(.app(id))
            }
            return Self.resource(stored)
        }
    }

    /// `Apps.List`; with `scope` (a scoped token's apps), only those apps.
    public func listApps(_ page: PageRequest, within scope: [String]? = nil) throws(RegistryError)
        -> API.AppsList.Output
    {
        try mapped {
            let result = try store.read { tx in try store.apps.list(page, within: scope, in: tx) }
            return API.AppsList.Output(result, Self.resource)
        }
    }

    /// `Apps.Update`. `app.hosts` left out keeps the app's host patterns (so a scoped admin's update, which
    /// may not change them, need not repeat them); `shareNames` as in `createApp`.
    public func updateApp(_ app: App, etag: String?, shareNames: Bool = false, by caller: Caller)
        throws(RegistryError) -> Resource<App>
    {
        try ModelValidation.app(app)
        try Self.requireEveryApp(caller, shareNames: shareNames, hostsChanged: false)
        return try write(
            caller, method: API.AppsUpdate.name, resource: .app(app.id), about: app.id
        ) {
            tx in
            let before = try self.store.apps.get(app.id, in: tx)
            var app = app
            if app.hosts == nil { app.hosts = before?.value.hosts }
            let changed = (app.hosts ?? []) != (before?.value.hosts ?? [])
            try Self.requireEveryApp(caller, shareNames: false, hostsChanged: changed)
            if !shareNames, let conflict = try self.nameConflict(app, before: before?.value, in: tx) {
                throw conflict.error
            }
            let stored = try self.store.apps.update(app, expectedEtag: etag, in: tx)
            return Mutation(value: Self.resource(stored), before: before?.value, after: stored.value)
        }.value
    }

    public func deleteApp(_ id: String, etag: String?, by caller: Caller) throws(RegistryError) {
        _ = try write(caller, method: API.AppsDelete.name, resource: .app(id), about: id) { tx in
            let referencing = try self.store.domains.all(in: tx).filter { $0.value.apps.contains(id) }
            if let domain = referencing.first {
                let (app, host) = (ResourceName.app(id), ResourceName.domain(domain.value.host))
                throw RegistryError.failedPrecondition(
                    "\(app) is still served on \(host): remove it from its domains first")
            }
            // The app's routes go with it (the schema cascades); its releases are history of this app only.
            if try self.store.apps.get(id, in: tx) != nil { try self.store.releases.deleteAll(app: id, in: tx) }
            let stored = try self.store.apps.delete(id, expectedEtag: etag, in: tx)
            return Mutation(value: Empty(), before: stored.value, after: nil)
        }
    }

    public func createDomain(_ domain: Domain, by caller: Caller) throws(RegistryError) -> Resource<Domain> {
        var domain = domain
        domain.host = domain.host.lowercased()
        try ModelValidation.domain(domain)
        let host = domain.host
        return try write(
            caller, method: API.DomainsCreate.name, resource: .domain(host), about: host
        ) {
            tx in
            for app in domain.apps where try self.store.apps.get(app, in: tx) == nil {
                throw RegistryError(
                    .failedPrecondition, "\(ResourceName.app(app)) does not exist",
                    fieldViolations: [
                        FieldViolation(field: "domain.apps", description: "\(ResourceName.app(app)) does not exist")
                    ])
            }
            if let target = domain.aliasOf, try self.store.domains.get(target, in: tx) == nil {
                throw RegistryError(
                    .failedPrecondition, "\(ResourceName.domain(target)) does not exist",
                    fieldViolations: [
                        FieldViolation(
                            field: "domain.aliasOf", description: "\(ResourceName.domain(target)) does not exist")
                    ])
            }
            if !caller.isForEveryApp,
                let refusal = HostOwnership.refusal(
                    domain, apps: try self.store.apps.all(in: tx).map(\.value),
                    domains: try self.store.domains.all(in: tx).map(\.value))
            {
                throw refusal
            }
            try self.checkSubstitutionBound(domain, in: tx)
            let stored = try self.store.domains.create(domain, in: tx)
            return Mutation(value: Self.resource(stored), before: nil, after: stored.value)
        }.value
    }

    public func getDomain(_ host: String) throws(RegistryError) -> Resource<Domain> {
        try mapped {
            guard let stored = try store.read({ tx in try store.domains.get(host.lowercased(), in: tx) }) else {
                throw RegistryError.notFound(.domain(host))
            }
            return Self.resource(stored)
        }
    }

    /// `Domains.List`; with `scope` (a scoped token's apps), only the domains one of them answers for.
    public func listDomains(app: String?, _ page: PageRequest, within scope: [String]? = nil) throws(RegistryError)
        -> API.DomainsList.Output
    {
        try mapped {
            if let app {
                // Domains per app are few: filter the full list rather than paging a join.
                let all = try store.read { tx in try store.domains.all(in: tx) }.filter { $0.value.apps.contains(app) }
                return API.DomainsList.Output(items: all.map(Self.resource), nextPageToken: "")
            }
            let result = try store.read { tx in try store.domains.list(page, within: scope, in: tx) }
            return API.DomainsList.Output(result, Self.resource)
        }
    }

    public func deleteDomain(_ host: String, etag: String?, by caller: Caller) throws(RegistryError) {
        let host = host.lowercased()
        _ = try write(
            caller, method: API.DomainsDelete.name, resource: .domain(host), about: host
        ) {
            tx in
            if let alias = try self.store.domains.all(in: tx).first(where: { $0.value.aliasOf == host }) {
                let (aliasName, name) = (ResourceName.domain(alias.value.host), ResourceName.domain(host))
                throw RegistryError.failedPrecondition("\(aliasName) is an alias of \(name): delete the alias first")
            }
            // Deleted links do not hold the domain (their codes stay taken: `links` keeps their rows).
            let live = try self.store.links.liveCount(domain: host, in: tx)
            if live > 0 {
                throw RegistryError.failedPrecondition(
                    "\(ResourceName.domain(host)) has \(live) short link\(live == 1 ? "" : "s"): delete "
                        + "\(live == 1 ? "it" : "them") first")
            }
            let stored = try self.store.domains.delete(host, expectedEtag: etag, in: tx)
            return Mutation(value: Empty(), before: stored.value, after: nil)
        }
    }

    /// Refuses a caller limited to some apps what only an admin for every app may do: share names, or set
    /// or change host patterns (they are the boundary between tenants' domains).
    static func requireEveryApp(_ caller: Caller, shareNames: Bool, hostsChanged: Bool) throws(RegistryError) {
        guard !caller.isForEveryApp else { return }
        if shareNames {
            throw RegistryError(
                .permissionDenied, "shareNames: only an admin token for every app may share names between apps",
                fieldViolations: [
                    FieldViolation(field: "shareNames", description: "only an admin token for every app may send it")
                ])
        }
        if hostsChanged {
            throw RegistryError(
                .permissionDenied, "app.hosts: only an admin token for every app may set an app's host patterns",
                fieldViolations: [
                    FieldViolation(field: "app.hosts", description: "only an admin token for every app may set them")
                ])
        }
    }

    /// A name `app` would newly hold that another app holds (`NameOwnership`), read in `tx`.
    func nameConflict(_ app: App, before: App?, in tx: Transaction) throws -> NameOwnership.Conflict? {
        NameOwnership.conflict(
            claimedBy: app, before: before, others: try store.apps.all(in: tx).map(\.value),
            domains: try store.domains.all(in: tx).map(\.value))
    }
}
