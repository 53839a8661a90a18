import Foundation
import RouteCore

/// `routereg webhook create|list|delete|deliveries`: receivers of an app's link events.
enum WebhookCommands {
    static let appArgument = PositionalSpec(name: "APP", summary: "the app whose link events are sent")
    static let idArgument = PositionalSpec(name: "ID", summary: "the webhook's id (wh_…)")

    static let specs: [CommandSpec] = [
        CommandSpec(
            ["webhook", "create"], summary: "send an app's link events to URL, signed (the secret is shown once)",
            details: """
                Each POST carries up to 100 events in order ({"webhook", "events": [{"id", "type", "created",
                "data"}]}) with the header RouteRegistry-Signature: t=UNIX,v1=HEX, the HMAC-SHA256 of "t.BODY"
                under the secret. Answer 2xx within 5 s; anything else is sent again after 1 s, 2 s, 4 s … up to
                10 minutes. URL must be https on a public host (serve --webhook-private-hosts allows others).
                """,
            positionals: [appArgument, PositionalSpec(name: "URL", summary: "the receiver, https://…")],
            flags: [
                .value(
                    "event", "TYPE", "only this event type (\(WebhookEventType.all.joined(separator: ", ")))",
                    repeatable: true),
                .value("description", "TEXT", "what it is for"),
            ],
            examples: [
                "webhook create badoo https://hooks.example.com/routereg",
                "webhook create badoo https://hooks.example.com/clicks --event link.clicked",
            ], action: .run(create)),
        CommandSpec(
            ["webhook", "list"], summary: "an app's webhooks and their delivery state", positionals: [appArgument],
            examples: ["webhook list badoo"], action: .run(list)),
        CommandSpec(
            ["webhook", "deliveries"], summary: "a webhook's latest delivery attempts, newest first",
            positionals: [appArgument, idArgument], examples: ["webhook deliveries badoo wh_0123456789abcdef"],
            action: .run(deliveries)),
        CommandSpec(
            ["webhook", "delete"], summary: "stop sending events to a webhook", positionals: [appArgument, idArgument],
            examples: ["webhook delete badoo wh_0123456789abcdef"], action: .run(delete)),
    ]

    static func create(_ run: Invocation) throws {
        let events = run.arguments.values("event")
        let webhook = Webhook(
            url: run.argument(1), events: events.isEmpty ? WebhookEventType.all : events,
            description: run.arguments.value("description"))
        let (created, raw) = try run.call(
            API.WebhooksCreate.self, WriteRequest(.init(app: run.argument(0), webhook: webhook)))
        if run.json { return run.printJSON(raw) }
        run.print(
            "Created \(created.name) → \(created.webhook.url) (\(created.webhook.events.joined(separator: ", ")))")
        run.print("Signing secret (shown once; keep it where the receiver reads it):")
        run.print(created.secret ?? "")
    }

    static func list(_ run: Invocation) throws {
        let (result, raw) = try run.call(API.WebhooksList.self, .init(app: run.argument(0)))
        if run.json { return run.printJSON(raw) }
        if result.webhooks.isEmpty { return run.print("No webhooks. Add one with 'routereg webhook create'.") }
        let rows = result.webhooks.map { view in
            [
                view.webhook.id, view.webhook.url, view.webhook.events.joined(separator: ","),
                view.failures == 0 ? "ok" : "\(view.failures) failed, next \(view.nextAttemptTime ?? "soon")",
                run.ago(view.createTime),
            ]
        }
        run.print(TextTable.render(rows, header: ["id", "url", "events", "state", "created"]))
    }

    static func deliveries(_ run: Invocation) throws {
        let (result, raw) = try run.call(
            API.WebhooksDeliveries.self, .init(app: run.argument(0), id: run.argument(1)))
        if run.json { return run.printJSON(raw) }
        if result.deliveries.isEmpty { return run.print("Nothing delivered yet.") }
        let rows = result.deliveries.map {
            [$0.time, String($0.events), $0.status.map(String.init) ?? "-", "\($0.milliseconds) ms", $0.error ?? ""]
        }
        run.print(TextTable.render(rows, header: ["time", "events", "status", "took", "error"]))
    }

    static func delete(_ run: Invocation) throws {
        let (_, raw) = try run.call(
            API.WebhooksDelete.self, WriteRequest(.init(app: run.argument(0), id: run.argument(1))))
        if run.json { return run.printJSON(raw) }
        run.print("Deleted \(ResourceName.webhook(app: run.argument(0), id: run.argument(1)))")
    }
}
