/// Commands implemented in their own files with their own argument parsing and help (`serve`, `migrate`,
/// `aasa check`): the table only routes their arguments to them.
enum ExternalCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            ["aasa", "check"], summary: "evaluate any AASA file offline for URLs, as iOS would",
            positionals: [
                PositionalSpec(name: "FILE", summary: "the AASA file"),
                PositionalSpec(name: "URL", summary: "links to evaluate", variadic: true),
            ],
            flags: [
                .value("app", "APPID", "TEAMID.bundle.id"), .value("domain", "HOST", "the host it was served from"),
            ],
            examples: [
                "aasa check apple-app-site-association --app ABCDE12345.com.badoo.Badoo https://m.badoo.com/u/1"
            ],
            action: .passthrough { AASACheckCommand.run($0) }),
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
