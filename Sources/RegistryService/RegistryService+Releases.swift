import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    static func resource(_ stored: StoredRelease) -> ReleaseResource {
        let release = stored.release
        return ReleaseResource(
            name: ResourceName.release(app: release.app, platform: release.platform, version: release.version)
                .description,
            app: release.app, platform: release.platform, version: release.version, state: release.state,
            createTime: Timestamp.string(stored.createTime), publishTime: stored.publishTime.map(Timestamp.string),
            retireTime: stored.retireTime.map(Timestamp.string))
    }

    private static func name(_ key: ReleaseKey) -> ResourceName {
        .release(app: key.app, platform: key.platform, version: key.version)
    }

    public func createRelease(_ key: ReleaseKey, by caller: Caller) throws(RegistryError) -> ReleaseResource {
        try write(
            caller, method: API.ReleasesCreate.name, resource: Self.name(key),
            about: "\(key.platform.rawValue) \(key.version)"
        ) { tx in
            if try self.store.apps.get(key.app, in: tx) == nil { throw RegistryError.notFound(.app(key.app)) }
            let (stored, created) = try self.store.releases.upsertDraft(
                app: key.app, platform: key.platform, version: key.version, in: tx)
            if !created { throw RegistryError.alreadyExists(Self.name(key)) }
            return Mutation(
                value: Self.resource(stored), before: nil, after: stored.release, change: .releases(app: key.app))
        }.value
    }

    /// Moves a release to `live` (creating it if needed) or `retired`, and regenerates every file it changes.
    public func changeRelease(_ key: ReleaseKey, to state: ReleaseState, by caller: Caller) throws(RegistryError)
        -> API.ReleaseChange
    {
        let method = state == .live ? API.ReleasesPublish.name : API.ReleasesRetire.name
        let outcome = try write(
            caller, method: method, resource: Self.name(key),
            about: "\(key.platform.rawValue) \(key.version)", ruleLint: true
        ) { tx in
            if try self.store.apps.get(key.app, in: tx) == nil { throw RegistryError.notFound(.app(key.app)) }
            let before: StoredRelease?
            if state == .live {
                let (existing, created) = try self.store.releases.upsertDraft(
                    app: key.app, platform: key.platform, version: key.version, in: tx)
                before = created ? nil : existing
            } else {
                before = try self.store.releases.get(
                    app: key.app, platform: key.platform, version: key.version, in: tx)
                guard let before else { throw RegistryError.notFound(Self.name(key)) }
                // Retiring is for versions that shipped; a draft never shaped any file (retiring a retired
                // release again is harmless, so pipelines may re-run).
                if before.release.state == .draft {
                    throw RegistryError.failedPrecondition(
                        "\(Self.name(key)) is a draft: only live releases can be retired")
                }
            }
            let stored = try self.store.releases.setState(
                app: key.app, platform: key.platform, version: key.version, to: state, in: tx)
            return Mutation(
                value: Self.resource(stored), before: before?.release, after: stored.release,
                change: .releases(app: key.app))
        }
        return API.ReleaseChange(release: outcome.value, revisions: outcome.revisions, lint: outcome.lint)
    }

    public func getRelease(_ key: ReleaseKey) throws(RegistryError) -> ReleaseResource {
        try mapped {
            guard
                let stored = try store.read({ tx in
                    try store.releases.get(app: key.app, platform: key.platform, version: key.version, in: tx)
                })
            else { throw RegistryError.notFound(Self.name(key)) }
            return Self.resource(stored)
        }
    }

    public func listReleases(_ input: API.ReleasesList.Input) throws(RegistryError) -> API.ReleasesList.Output {
        try mapped {
            let result = try store.read { tx in
                if try store.apps.get(input.app, in: tx) == nil { throw RegistryError.notFound(.app(input.app)) }
                return try store.releases.list(
                    app: input.app, platform: input.platform, state: input.state, input.page, in: tx)
            }
            return API.ReleasesList.Output(result, Self.resource)
        }
    }
}
