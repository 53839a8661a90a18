import Foundation
import RouteStore

/// `routereg migrate`: applies pending schema migrations to the configured database and exits.
enum MigrateCommand {
    static let spec: CommandSpec = CommandSpec(
        ["migrate"], summary: "apply database schema migrations",
        details: """
            Applies pending migrations (Schema/migrations) in order, each in a transaction, under an advisory lock.
            The database comes from --database-url, DATABASE_URL or libpq's PG* variables.
            """,
        flags: [.value("database-url", "URL", "the database (default: DATABASE_URL, else libpq's PG* variables)")],
        examples: ["migrate --database-url postgres://localhost/routereg"], globalFlags: [CommandTable.helpFlag],
        compatibility: .server { HelpFormatter.command(spec) }, action: .run(migrate))

    /// Prints what it applied, or `up to date`; a database it cannot reach exits 3.
    static func migrate(_ run: Invocation) throws {
        let url = run.arguments.value("database-url") ?? run.environment.variables["DATABASE_URL"] ?? ""
        let database = Database(url: url, poolSize: 1)
        defer { database.close() }
        do {
            let applied = try MigrationRunner.bundled().run(on: database)
            run.print(applied.isEmpty ? "up to date" : "applied: \(applied.joined(separator: ", "))")
        } catch let error as StoreError {
            throw CommandFailure(
                describe(error), status: error.isConnectionFailure ? CLI.exitUnreachable : CLI.exitRefused)
        }
    }

    /// A store failure for an operator's terminal: a migration failure says which migration and why (the
    /// schema's own names, no client data), anything else only its code.
    static func describe(_ error: StoreError) -> String {
        guard error.code == .migrationFailed || error.code == .migrationChanged, !error.logDetail.isEmpty else {
            return error.description
        }
        return "\(error.description): \(error.logDetail)"
    }
}
