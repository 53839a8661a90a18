import RouteCore

/// `routereg domain add|list|remove`.
enum DomainCommands {
    static let hostArgument = PositionalSpec(name: "HOST", summary: "the host name, e.g. m.badoo.com")

    static let specs: [CommandSpec] = [
        CommandSpec(
            ["domain", "add"], summary: "add a domain the apps answer on", positionals: [hostArgument],
            flags: [
                .value("app", "APP", "app served on this host, in AASA order", repeatable: true),
                .value("alias-of", "HOST", "serve exactly the rules of this other host"),
                .bool("legacy-paths", "also emit the legacy paths form for iOS 12 and earlier"),
                .bool("case-insensitive", "match paths case-insensitively by default on this host"),
                .value(
                    "substitution-variable", "NAME=V1,V2", "a user-defined $(NAME) with its values", repeatable: true),
            ],
            examples: ["domain add m.badoo.com --app badoo"], action: .run(add)),
        CommandSpec(
            ["domain", "list"], summary: "list the domains",
            flags: [.value("app", "APP", "only this app's")] + CommonFlags.paging,
            examples: ["domain list --app badoo"], action: .run(list)),
        CommandSpec(
            ["domain", "remove"], summary: "remove a domain", positionals: [hostArgument], flags: [CommonFlags.etag],
            examples: ["domain remove m.badoo.com"], action: .run(remove)),
    ]

    static func add(_ run: Invocation) throws {
        var variables: [String: [String]] = [:]
        for text in run.arguments.values("substitution-variable") {
            let (name, values) = try ArgumentValues.pair(
                text, flag: "substitution-variable", placeholder: "NAME=VALUE1,VALUE2")
            variables[name] = values.split(separator: ",").map(String.init)
        }
        let domain = Domain(
            host: run.argument(0), apps: run.arguments.values("app"), aliasOf: run.arguments.value("alias-of"),
            defaults: run.arguments.bool("case-insensitive") ? MatchDefaults(caseSensitive: false) : nil,
            substitutionVariables: variables.isEmpty ? nil : variables,
            legacyPaths: run.arguments.has("legacy-paths") ? run.arguments.bool("legacy-paths") : nil)
        let (created, raw) = try run.call(API.DomainsCreate.self, WriteRequest(.init(domain: domain)))
        if run.json { return run.printJSON(raw) }
        run.print("Added \(created.meta.name) for \(created.value.apps.joined(separator: ", ")).")
    }

    static func list(_ run: Invocation) throws {
        let page = try run.page()
        let (result, raw) = try run.call(
            API.DomainsList.self,
            .init(.init(app: run.arguments.value("app")), page))
        if run.json { return run.printJSON(raw) }
        if result.items.isEmpty { return run.print("No domains. Add one with 'routereg domain add'.") }
        let rows = result.items.map { domain in
            [
                domain.value.host, domain.value.apps.joined(separator: ", "), domain.value.aliasOf ?? "",
                domain.value.legacyPaths == true ? "yes" : "", run.ago(domain.meta.createTime),
            ]
        }
        run.print(TextTable.render(rows, header: ["host", "apps", "alias of", "legacy paths", "created"]))
        run.printNextPage(result.nextPageToken)
    }

    static func remove(_ run: Invocation) throws {
        let (_, raw) = try run.call(
            API.DomainsDelete.self, WriteRequest(.init(host: run.argument(0), etag: run.arguments.value("etag"))))
        if run.json { return run.printJSON(raw) }
        run.print("Removed \(ResourceName.domain(run.argument(0))).")
    }
}
