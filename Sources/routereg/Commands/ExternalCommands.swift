/// Commands implemented in their own files with their own argument parsing and help (`serve`, `migrate`):
/// the table only routes their arguments to them.
enum ExternalCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            ["serve"], summary: "run the registry server (embedded PostgreSQL unless --database-url)",
            examples: ["serve --listen 127.0.0.1:8080 --data-dir ./data"],
            action: .passthrough { ServeCommand.run($0) }),
        CommandSpec(
            ["migrate"], summary: "apply database schema migrations",
            examples: ["migrate --database-url postgres://localhost/routereg"],
            action: .passthrough { MigrateCommand.run($0) }),
    ]
}
