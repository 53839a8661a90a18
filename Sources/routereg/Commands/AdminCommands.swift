import Foundation
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
            flags: [
                .value("role", "ROLE", "admin, releaser or reader (default reader)"),
                .value("apps", "A,B", "only these apps (default: every app)"),
                .value("expires-in", "DURATION", "stops working after this long: 12h, 90d, 4w"),
                .value("expires-at", "DATE", "stops working then (RFC 3339, or YYYY-MM-DD at midnight UTC)"),
            ],
            examples: [
                "token create ci-release --role releaser",
                "token create badoo-ci --role releaser --apps badoo --expires-in 90d",
            ], action: .run(createToken)),
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
        let apps = run.arguments.value("apps").map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let apps, apps.isEmpty { throw UsageError("--apps: name at least one app, e.g. --apps badoo,bumble") }
        let expiresAt = try expiry(in: run.arguments.value("expires-in"), at: run.arguments.value("expires-at"), run)
        let (result, raw) = try run.call(
            API.TokensCreate.self,
            .init(token: .init(displayName: run.argument(0), role: role, apps: apps, expiresAt: expiresAt)))
        if run.json { return run.printJSON(raw) }
        let token = result.token
        let scope = token.apps.map { "apps " + $0.joined(separator: ", ") } ?? "every app"
        let expiry = token.expiresAt.map { "expires \($0)" } ?? "never expires"
        run.print("Created \(token.name) (\(token.role.rawValue), \(scope), \(expiry)) for \(token.displayName).")
        run.print("Secret (shown only now; store it, e.g. as ROUTEREG_TOKEN in your CI):")
        run.print(result.secret)
    }

    static func listTokens(_ run: Invocation) throws {
        let (result, raw) = try run.call(API.TokensList.self, try run.page())
        if run.json { return run.printJSON(raw) }
        if result.items.isEmpty { return run.print("No tokens.") }
        let now = run.environment.now
        let rows = result.items.map { token in
            [
                token.id, token.displayName, token.role.rawValue, token.apps?.joined(separator: ",") ?? "all",
                token.expiresAt.map { String($0.prefix(10)) } ?? "never",
                token.lastUsedAt.map { run.ago($0) } ?? "never", run.ago(token.createTime),
                token.revokeTime.map { "revoked " + run.ago($0) }
                    ?? (token.expiresAt.flatMap { try? Date($0, strategy: .iso8601) }.map { $0 <= now } == true
                        ? "expired" : "active"),
            ]
        }
        run.print(
            TextTable.render(
                rows, header: ["id", "name", "role", "apps", "expires", "last used", "created", "state"]))
        run.printNextPage(result.nextPageToken)
    }

    /// `--expires-in 90d` (from now) or `--expires-at DATE`, not both; nil for neither.
    static func expiry(in duration: String?, at date: String?, _ run: Invocation) throws(UsageError) -> String? {
        switch (duration, date) {
        case (nil, nil): return nil
        case (.some, .some): throw UsageError("--expires-in and --expires-at: give one of them")
        case (nil, .some(let date)):
            return try LinkCommands.expiry(date, flag: "--expires-at")
        case (.some(let text), nil):
            let units: [Character: Double] = ["h": 3600, "d": 86_400, "w": 604_800]
            guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0 else {
                throw UsageError("--expires-in: \"\(text)\" is not a duration like 12h, 90d or 4w")
            }
            let date = run.environment.now.addingTimeInterval(Double(count) * unit)
            return date.formatted(.iso8601)
        }
    }

    static func revokeToken(_ run: Invocation) throws {
        let (token, raw) = try run.call(API.TokensRevoke.self, WriteRequest(.init(id: run.argument(0))))
        if run.json { return run.printJSON(raw) }
        run.print("Revoked \(token.name) (\(token.displayName)).")
    }
}
