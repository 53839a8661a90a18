import Foundation
import RouteStore

/// `routereg migrate`: applies pending schema migrations to the configured database and exits.
enum MigrateCommand {
    static let usage = """
        usage: routereg migrate [--database-url URL]

        Applies pending migrations (Schema/migrations) in order, each in a transaction, under an advisory lock.
        The database comes from --database-url, DATABASE_URL or libpq's PG* variables.

        example: DATABASE_URL=postgresql://localhost/routereg routereg migrate
        """

    static func run(_ arguments: [String]) -> Int32 {
        var url = ProcessInfo.processInfo.environment["DATABASE_URL"] ?? ""
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                print(usage)
                return 0
            case "--database-url":
                guard let value = rest.popFirst() else { return usageError("--database-url needs a value") }
                url = value
            case let flag where flag.hasPrefix("--database-url="):
                url = String(flag.dropFirst("--database-url=".count))
            default:
                return usageError("unknown argument \(argument)")
            }
        }
        let database = Database(url: url, poolSize: 1)
        defer { database.close() }
        do {
            let applied = try MigrationRunner.bundled().run(on: database)
            print(applied.isEmpty ? "up to date" : "applied: \(applied.joined(separator: ", "))")
            return 0
        } catch let error as StoreError {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            return error.isConnectionFailure ? 3 : 1
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            return 1
        }
    }

    private static func usageError(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("error: \(message)\n\(usage)\n".utf8))
        return 2
    }
}
