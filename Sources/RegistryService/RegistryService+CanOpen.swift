import Foundation
import RouteCore

extension RegistryService {
    /// `CanOpen.Check`: decided from the snapshot's compiled rules.
    public func check(_ input: API.CanOpenCheck.Input) throws(RegistryError) -> Decision {
        let current = snapshot
        guard current.registry.apps.contains(where: { $0.id == input.app }) else {
            throw RegistryError.notFound(.app(input.app))
        }
        guard let url = LinkURL(input.url) else {
            throw RegistryError.invalidArgument(field: "url", "is not an absolute URL (scheme://host/path)")
        }
        return current.engine.decide(
            app: input.app, platform: input.platform, version: input.version, url: url, original: input.url)
    }

    /// `CanOpen.GetTable`: any version's table, computed from the snapshot's registry; live versions' are
    /// remembered, and a current `ifNoneMatch` is answered from the remembered ETag alone. The table comes as
    /// the bytes its ETag was computed from (canonical JSON, which is also how the API encodes it), so the
    /// server neither decodes nor re-encodes tables. `table` is nil when `notModified`.
    public func canOpenTableJSON(_ input: API.CanOpenGetTable.Input) throws(RegistryError) -> (
        etag: String, notModified: Bool, table: Data?
    ) {
        let tables = snapshot.canOpenTables
        let key = ReleaseKey(app: input.app, platform: input.platform, version: input.version)
        if let ifNoneMatch = input.ifNoneMatch, let etag = tables.knownETag(key), etag == ifNoneMatch {
            return (etag, true, nil)
        }
        guard let file = try tables.file(key) else { throw RegistryError.notFound(.app(input.app)) }
        let notModified = input.ifNoneMatch == file.etag
        return (file.etag, notModified, notModified ? nil : file.bytes)
    }

    /// `Matrix.Get`: every route of the app against every live version of the platform.
    public func matrix(app: String, platform: Platform) throws(RegistryError) -> API.MatrixGet.Output {
        let registry = snapshot.registry
        guard registry.apps.contains(where: { $0.id == app }) else { throw RegistryError.notFound(.app(app)) }
        let versions = registry.liveVersions(app: app, platform: platform)
        let rows = (registry.routes[app] ?? []).map { route in
            API.MatrixGet.Row(
                route: route.id, pattern: route.pattern, action: route.action,
                supportedSince: route.action == .open ? route.platforms[platform]?.since : nil,
                cells: versions.map { version in
                    let state: API.MatrixGet.Cell.State =
                        route.action == .exclude
                        ? .excluded
                        : route.handles(platform, version)
                            ? .open : route.inRange(platform, version) ? .switchedOff : .fallback
                    return API.MatrixGet.Cell(version: version, state: state)
                })
        }
        return API.MatrixGet.Output(app: app, platform: platform, versions: versions, routes: rows)
    }
}
