import Foundation
import RegistryService
import RegistryTesting
import RouteCore
import RouteStore

/// A `RegistryService` called directly, with no HTTP server and no runtime: its own migrated database on the
/// test cluster, a bootstrap admin secret, and its log lines kept for assertions. One per test (Swift Testing
/// makes a suite instance per test), released when the test ends.
final class ServiceFixture: Sendable {
    static let adminSecret = "service-test-admin-secret"

    let database: TestDatabase
    let pool: Database
    let service: RegistryService
    let log = LogLines()

    init(suite: String) throws {
        database = try TestPostgres.makeDatabase(suite: suite)
        pool = Database(url: database.url, poolSize: 2)
        do {
            try MigrationRunner.bundled().run(on: pool)
        } catch {
            pool.close()
            try? database.release()
            throw error
        }
        let log = self.log
        service = RegistryService(
            store: Store(database: pool),
            options: RegistryService.Options(
                bootstrapAdminSHA256: SHA256.hex(Array(Self.adminSecret.utf8)), log: { log.append($0) }))
        guard service.start() else { throw NotStarted() }
    }

    struct NotStarted: Error, CustomStringConvertible {
        var description: String { "the service could not load its snapshot from the database" }
    }

    deinit {
        pool.close()
        try? database.release()
    }

    /// The bootstrap admin, as the transport would pass it after authenticating the secret.
    static let admin = Caller(actor: RegistryService.bootstrapActor)

    static let ios = IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"])

    static func version(_ text: String) -> Version { try! Version(text) }

    static func key(_ version: String, app: String = "badoo") -> ReleaseKey {
        ReleaseKey(app: app, platform: .ios, version: self.version(version))
    }

    /// An iOS route on `path`, handled since `since`.
    static func route(_ id: String, path: String, since: String = "5.0") -> Route {
        Route(id: id, pattern: URLPattern(path: path), platforms: [.ios: VersionRange(since: version(since))])
    }

    /// The badoo app (iOS only) and the domain m.badoo.com serving it.
    func seedApp() throws {
        _ = try service.createApp(App(id: "badoo", displayName: "Badoo", ios: Self.ios), by: Self.admin)
        _ = try service.createDomain(Domain(host: "m.badoo.com", apps: ["badoo"]), by: Self.admin)
    }

    /// The AASA the snapshot serves for m.badoo.com, parsed, with its revision.
    func aasa() throws -> (revision: Int, paths: [String])? {
        guard let document = service.snapshot.document(host: "m.badoo.com", kind: .aasa) else { return nil }
        let object = try JSONSerialization.jsonObject(with: document.bytes) as? [String: Any] ?? [:]
        return (document.revision, componentPaths(object))
    }

    /// `CanOpen.Check` of an iOS version for `url`.
    func check(_ version: String, _ url: String) throws -> Decision {
        try service.check(.init(app: "badoo", platform: .ios, version: Self.version(version), url: url))
    }

    /// Every audit entry, newest first.
    func audit() throws -> [AuditEntry] {
        try service.listAudit(API.AuditList.Input(.init(), PageRequest(pageSize: 1000))).items
    }
}
