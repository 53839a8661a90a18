import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    /// `Webhooks.Create`: a receiver for `app`'s link events; the answer holds its signing secret, once.
    public func createWebhook(_ webhook: Webhook, app: String, by caller: Caller) throws(RegistryError)
        -> API.WebhookView
    {
        guard snapshot.registry.apps.contains(where: { $0.id == app }) else { throw .notFound(.app(app)) }
        var webhook = webhook
        webhook.url = try WebhookURLCheck(allowedHosts: options.webhookPrivateHosts).check(webhook.url).get()
        var seen = Set<String>()
        webhook.events = webhook.events.filter { seen.insert($0).inserted }
        if webhook.events.isEmpty { throw .invalidArgument(field: "webhook.events", "must name at least one event") }
        if let bad = webhook.events.firstIndex(where: { !WebhookEventType.all.contains($0) }) {
            throw .invalidArgument(
                field: "webhook.events[\(bad)]", "must be one of \(WebhookEventType.all.joined(separator: ", "))")
        }
        webhook.id = "wh_" + Self.randomHex(bytes: 8)
        let secret = "whsec_" + Self.randomHex(bytes: 32)
        let created = webhook
        return try write(
            caller, method: API.WebhooksCreate.name, resource: .webhook(app: app, id: webhook.id), about: app
        ) { tx in
            guard try self.store.webhooks.count(app: app, in: tx) < API.WebhooksCreate.maxPerApp else {
                throw RegistryError.failedPrecondition(
                    "\(ResourceName.app(app)) has \(API.WebhooksCreate.maxPerApp) webhooks already: delete one first")
            }
            let stored = try self.store.webhooks.create(created, app: app, secret: secret, by: caller.actor, in: tx)
            var view = Self.view(stored)
            view.secret = secret
            // The audit entry holds the webhook without its secret.
            return Mutation(value: view, before: nil, after: created, change: .nothing, apps: [app])
        }.value
    }

    /// `Webhooks.List`.
    public func listWebhooks(app: String) throws(RegistryError) -> [API.WebhookView] {
        try mapped { try store.read { tx in try store.webhooks.list(app: app, in: tx) }.map(Self.view) }
    }

    /// `Webhooks.Delete`: no more deliveries; events not delivered yet are dropped with it.
    public func deleteWebhook(app: String, id: String, by caller: Caller) throws(RegistryError) {
        _ = try write(
            caller, method: API.WebhooksDelete.name, resource: .webhook(app: app, id: id), about: app
        ) { tx in
            guard try self.store.webhooks.delete(app: app, id: id, in: tx) else {
                throw RegistryError.notFound(.webhook(app: app, id: id))
            }
            return Mutation(value: Empty(), before: nil, after: nil, change: .nothing, apps: [app])
        }
    }

    /// `Webhooks.Deliveries`: the latest attempts, newest first.
    public func webhookDeliveries(app: String, id: String) throws(RegistryError) -> [API.WebhooksDeliveries.Delivery] {
        try mapped {
            try store.read { tx in
                guard try store.webhooks.list(app: app, in: tx).contains(where: { $0.webhook.id == id }) else {
                    throw RegistryError.notFound(.webhook(app: app, id: id))
                }
                return try store.webhooks.deliveries(webhook: id, in: tx)
            }
        }
    }

    /// Puts link events (all of one app) in the outbox, in the write's own transaction (so they are sent if and
    /// only if the write committed); the events are encoded only when a webhook of the app takes them.
    func enqueueLinkEvents(_ type: String, app: String, _ views: [API.LinkView], in tx: Transaction) throws {
        try store.webhooks.enqueue(app: app, type: type, in: tx) { try views.map { try SQLJSON(encoding: $0) } }
    }

    static func view(_ stored: StoredWebhook) -> API.WebhookView {
        API.WebhookView(
            webhook: stored.webhook, app: stored.app,
            name: ResourceName.webhook(app: stored.app, id: stored.webhook.id).description,
            createdBy: stored.createdBy, createTime: Timestamp.string(stored.createTime), failures: stored.failures,
            nextAttemptTime: stored.nextAttempt.map(Timestamp.string))
    }
}
