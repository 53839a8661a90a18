import Foundation
import RouteCore
import RouteStore

/// Model values the repository tests share.
enum Fixtures {
    static func version(_ text: String) -> Version { try! Version(text) }

    static func app(_ id: String = "badoo") -> App {
        App(
            id: id, displayName: "Badoo", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"]),
            android: AndroidConfig(packageName: "com.badoo.mobile", sha256CertFingerprints: ["AA:BB"]),
            schemes: ["badoo"])
    }

    static func route(_ id: String, path: String, since: String? = "5.0") -> Route {
        Route(
            id: id, pattern: URLPattern(path: path), action: since == nil ? .exclude : .open,
            platforms: since.map { [.ios: VersionRange(since: version($0))] } ?? [:])
    }
}

extension StoreTestDatabase {
    /// Runs `body` in a transaction of this database.
    func tx<T>(_ body: (Transaction) throws -> T) throws -> T { try database.withTransaction(body) }
}
