/// A command implemented in its own file with its own argument parsing and help (`serve`): the table only
/// routes its arguments to it.
enum ExternalCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            ["serve"], summary: "run the registry server (embedded PostgreSQL unless --database-url)",
            examples: ["serve --listen 127.0.0.1:8080 --data-dir ./data"],
            action: .passthrough { ServeCommand.run($0) })
    ]
}
