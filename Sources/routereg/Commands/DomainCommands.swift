import RouteCore

/// `routereg domain add|get|list|remove`.
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
                .bool("links", "a link domain: serve short links on it (routereg link create)"),
                .value(
                    "since", "PLATFORM=VERSION",
                    "with --links: first version resolving short links (adds the route claiming them)",
                    repeatable: true),
                .bool(
                    "long-link-previews",
                    "with --links: show a long link's own title, description and image (st, sd, si), marked as such"),
            ],
            examples: [
                "domain add m.badoo.com --app badoo",
                "domain add go.badoo.com --app badoo --links --since ios=5.12 --since android=51200",
            ], action: .run(add)),
        CommandSpec(
            ["domain", "get"], summary: "show a domain, with each app's share of its AASA size budget",
            positionals: [hostArgument], examples: ["domain get m.badoo.com"], action: .run(get)),
        CommandSpec(
            ["domain", "list"], summary: "list the domains",
            flags: [.value("app", "APP", "only this app's")] + CommonFlags.paging,
            examples: ["domain list --app badoo"], action: .run(list)),
        CommandSpec(
            ["domain", "remove"], summary: "remove a domain", positionals: [hostArgument], flags: [CommonFlags.etag],
            examples: ["domain remove m.badoo.com"], action: .run(remove)),
        DomainVerify.spec,
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
            legacyPaths: run.arguments.has("legacy-paths") ? run.arguments.bool("legacy-paths") : nil,
            links: run.arguments.bool("links") ? true : nil,
            longLinkPreviews: run.arguments.bool("long-link-previews") ? true : nil)
        var since: [Platform: VersionRange] = [:]
        for (platform, text) in try ArgumentValues.platformVersions(run.arguments.values("since"), flag: "since") {
            since[platform] = VersionRange(
                since: try ArgumentValues.version(text, field: "--since \(platform.rawValue)"))
        }
        if !since.isEmpty && domain.links != true { throw UsageError("--since goes with --links") }
        if domain.longLinkPreviews == true && domain.links != true {
            throw UsageError("--long-link-previews goes with --links")
        }
        let (created, raw) = try run.call(API.DomainsCreate.self, WriteRequest(.init(domain: domain)))
        if run.json && since.isEmpty { return run.printJSON(raw) }
        if !run.json { run.print("Added \(created.meta.name) for \(created.value.apps.joined(separator: ", ")).") }
        // The link paths are claimed like any others: a route of the app's, on this domain only, from the
        // first version that resolves short links.
        guard !since.isEmpty, let app = domain.apps.first else { return }
        let route = Route(
            id: linkRouteID(domain.host), pattern: URLPattern(path: "/*"), action: .open, platforms: since,
            domains: [domain.host], comment: "short links on \(domain.host)")
        let (added, routeRaw) = try run.call(API.RoutesCreate.self, WriteRequest(.init(app: app, route: route)))
        if run.json { return run.printJSON(routeRaw) }
        run.print(
            "Added \(added.meta.name): its AASA and assetlinks claim the link paths once a live version handles it.")
    }

    /// The id of the route claiming a link domain's paths: `links-go-badoo-com`.
    static func linkRouteID(_ host: String) -> String {
        String(("links-" + host.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()).prefix(63))
    }

    static func get(_ run: Invocation) throws {
        let (detail, raw) = try run.call(API.DomainsGet.self, .init(host: run.argument(0)))
        if run.json { return run.printJSON(raw) }
        let (domain, meta) = (detail.resource.value, detail.resource.meta)
        var rows: [[String]] = [["name", meta.name], ["apps", domain.apps.joined(separator: ", ")]]
        if let target = domain.aliasOf { rows.append(["alias of", target]) }
        if domain.isLinkDomain { rows.append(["short links", "yes"]) }
        if domain.legacyPaths == true { rows.append(["legacy paths", "yes"]) }
        rows.append(["created", run.ago(meta.createTime)])
        rows.append(["etag", meta.etag])
        run.print(TextTable.render(rows))
        guard let budget = detail.budget.aasaBudget, !budget.isEmpty else { return }
        // Each iOS app's part of the AASA against its equal share of Apple's 128 KB limit.
        run.print("")
        run.print(
            TextTable.render(
                budget.map {
                    [$0.app, "\($0.bytes)", "\($0.share)", "\($0.share > 0 ? $0.bytes * 100 / $0.share : 100)%"]
                },
                header: ["app", "aasa bytes", "share", "used"]))
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
