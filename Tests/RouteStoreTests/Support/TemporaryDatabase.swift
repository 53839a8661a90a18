import Foundation
import RouteStore

/// Creates throwaway databases on the server named by `DATABASE_URL`.
enum TemporaryDatabase {
    static func create(suite: String) throws -> (url: String, drop: @Sendable () -> Void) {
        guard let admin = ProcessInfo.processInfo.environment["DATABASE_URL"] else {
            throw StoreError(.connectionFailed, detail: "DATABASE_URL is not set")
        }
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let name = "t_" + suite.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(40) + "_" + suffix
        let connection = try Connection(url: admin)
        try connection.query("CREATE DATABASE \(unsafeRaw: name)")
        let url = replacingDatabase(in: admin, with: name)
        return (
            url,
            {
                if let connection = try? Connection(url: admin) {
                    _ = try? connection.query("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)")
                }
            }
        )
    }

    private static func replacingDatabase(in url: String, with name: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.path = "/" + name
        return components.string ?? url
    }
}
