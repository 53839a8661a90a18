import Foundation

/// `routereg version` and `routereg help`.
enum MiscCommands {
    /// The CLI's version, printed by `routereg version`.
    static let version = "0.1.0"

    static let specs: [CommandSpec] = [
        CommandSpec(
            ["version"], summary: "print routereg's version", examples: ["version"],
            action: .run { run in
                if run.json { return run.print("{\"version\":\"\(version)\"}") }
                run.print("routereg \(version)")
            }),
        CommandSpec(
            ["help"], summary: "help for a command",
            positionals: [PositionalSpec(name: "COMMAND", summary: "e.g. route add", optional: true, variadic: true)],
            examples: ["help route add"], action: .run(help)),
    ]

    static func help(_ run: Invocation) throws {
        let table = CommandTable.standard
        let words = run.arguments.positionals
        if words.isEmpty { return run.console.write(HelpFormatter.root(table)) }
        if let spec = table.command(words) { return run.console.write(HelpFormatter.command(spec)) }
        if words.count == 1, table.groups.contains(where: { $0.name == words[0] }) {
            return run.console.write(HelpFormatter.group(words[0], in: table))
        }
        throw UsageError("unknown command \"\(words.joined(separator: " "))\" (see 'routereg help')")
    }
}

extension CommandTable {
    /// The CLI's commands.
    static let standard = CommandTable(
        commands: AppCommands.specs + DomainCommands.specs + RouteCommands.specs + ReleaseCommands.specs
            + LinkCommands.specs + WebhookCommands.specs + AASACommands.specs + CanOpenCommands.specs
            + AdminCommands.specs
            + ManifestCommands.specs + [ServeCommand.spec, MigrateCommand.spec] + BackupCommands.specs
            + MiscCommands.specs,
        groups: [
            ("app", "Apps: iOS app IDs, Android package, schemes, fallback marker"),
            ("domain", "Domains the apps answer on"),
            ("route", "Routes: ordered URL patterns with the versions that handle them"),
            ("release", "Releases: publishing a version regenerates every domain's AASA"),
            ("link", "Short links on the apps' link domains"),
            ("webhook", "Webhooks: an app's link events sent, signed, to a receiver"),
            ("aasa", "Generated AASA and assetlinks documents, and AASA files from elsewhere"),
            ("token", "API tokens (admin)"),
            ("backup", "Backups: a restored database checked against the running registry"),
        ])
}
