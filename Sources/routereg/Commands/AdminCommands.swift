import RouteCore

/// `routereg audit` and `routereg token create|list|revoke`.
enum AdminCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            ["audit"], summary: "who changed what, newest first",
            flags: [.value("resource", "NAME", "only this resource, e.g. apps/badoo/routes/lookalikes")]
                + CommonFlags.paging,
            examples: ["audit --resource apps/badoo/routes/lookalikes"], action: .run(audit)),
        CommandSpec(
            ["token", "create"], summary: "create an API token (the secret is shown once)",
            positionals: [PositionalSpec(name: "NAME", summary: "who or what uses it, e.g. ci-release")],
            flags: [.value("role", "ROLE", "admin, releaser or reader (default reader)")],
            examples: ["token create ci-release --role releaser"], action: .run(createToken)),
        CommandSpec(
            ["token", "list"], summary: "list API tokens", flags: CommonFlags.paging, examples: ["token list"],
            action: .run(listTokens)),
        CommandSpec(
            ["token", "revoke"], summary: "revoke an API token",
            positionals: [PositionalSpec(name: "ID", summary: "the token ID")], examples: ["token revoke 3f2a"],
            action: .run(revokeToken)),
    ]

    static func audit(_ run: Invocation) throws {
        let page = try run.page(defaultSize: 50)
        let (result, raw) = try run.call(
            API.AuditList.self,
            .init(.init(resource: run.arguments.value("resource")), page))
        if run.json { return run.printJSON(raw) }
        if result.items.isEmpty { return run.print("No audit entries.") }
        let rows = result.items.map { [run.ago($0.at), $0.actor, $0.method, $0.resource] }
        run.print(TextTable.render(rows, header: ["when", "actor", "method", "resource"]))
        run.printNextPage(result.nextPageToken)
    }

    static func createToken(_ run: Invocation) throws {
        let roleText = run.arguments.value("role") ?? "reader"
        guard let role = Access(rawValue: roleText), role != .public else {
            throw UsageError("--role: \"\(roleText)\" is not a role (admin, releaser or reader)")
        }
        let (result, raw) = try run.call(
            API.TokensCreate.self, .init(token: .init(displayName: run.argument(0), role: role)))
        if run.json { return run.printJSON(raw) }
        run.print("Created \(result.token.name) (\(result.token.role.rawValue)) for \(result.token.displayName).")
        run.print("Secret (shown only now; store it, e.g. as ROUTEREG_TOKEN in your CI):")
        run.print(result.secret)
    }

    static func listTokens(_ run: Invocation) throws {
        let (result, raw) = try run.call(API.TokensList.self, try run.page())
        if run.json { return run.printJSON(raw) }
        if result.items.isEmpty { return run.print("No tokens.") }
        let rows = result.items.map { token in
            [
                token.id, token.displayName, token.role.rawValue, run.ago(token.createTime),
                token.revokeTime.map { "revoked " + run.ago($0) } ?? "active",
            ]
        }
        run.print(TextTable.render(rows, header: ["id", "name", "role", "created", "state"]))
        run.printNextPage(result.nextPageToken)
    }

    static func revokeToken(_ run: Invocation) throws {
        let (token, raw) = try run.call(API.TokensRevoke.self, WriteRequest(.init(id: run.argument(0))))
        if run.json { return run.printJSON(raw) }
        run.print("Revoked \(token.name) (\(token.displayName)).")
    }
}
