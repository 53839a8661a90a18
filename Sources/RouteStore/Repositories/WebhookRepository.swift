import Foundation
import RouteCore

/// A webhook as stored, with its delivery state.
public struct StoredWebhook: Sendable, Hashable {
    public var webhook: Webhook
    public var app: String
    public var secret: String
    public var createdBy: String
    public var createTime: Date
    /// The last event delivered.
    public var cursor: Int64
    public var failures: Int
    public var nextAttempt: Date?
}

/// An event waiting in the outbox.
public struct WebhookEventRow: Sendable, Hashable {
    public var id: Int64
    public var type: String
    /// The event's JSON object.
    public var payload: Data
    public var createTime: Date
}

/// Webhooks, their outbox of events and their deliveries' log (migration 0013). Every method runs in the
/// caller's transaction.
public struct WebhookRepository: Sendable {
    public init() {}

    private static let columns: SQLQuery = """
        id, app, url, events, description, secret, created_by, created_at, cursor, failures, next_attempt_at
        """

    /// Stores a new webhook, starting after the newest event so far (it receives nothing from before it).
    public func create(
        _ webhook: Webhook, app: String, secret: String, by actor: String, in tx: Transaction
    ) throws -> StoredWebhook {
        try decode(
            tx.query(
                """
                INSERT INTO webhooks (id, app, url, events, description, secret, created_by, cursor)
                VALUES (\(webhook.id), \(app), \(webhook.url), \(webhook.events)::text[], \(webhook.description),
                    \(secret), \(actor), (SELECT coalesce(max(id), 0) FROM webhook_events))
                RETURNING \(Self.columns)
                """)[0])
    }

    /// Whether any app has a webhook.
    public func any(in tx: Transaction) throws -> Bool {
        try tx.query("SELECT EXISTS (SELECT 1 FROM webhooks) AS any")[0].bool("any")
    }

    /// How many webhooks `app` has.
    public func count(app: String, in tx: Transaction) throws -> Int {
        try tx.query("SELECT count(*) AS n FROM webhooks WHERE app = \(app)")[0].int("n")
    }

    /// `app`'s webhooks, oldest first; every app's when nil.
    public func list(app: String?, in tx: Transaction) throws -> [StoredWebhook] {
        try tx.query(
            """
            SELECT \(Self.columns) FROM webhooks WHERE (\(app)::text IS NULL OR app = \(app))
            ORDER BY created_at, id
            """
        ).map(decode)
    }

    /// Deletes the webhook (its log goes with it); false when it was not there.
    public func delete(app: String, id: String, in tx: Transaction) throws -> Bool {
        try tx.query("DELETE FROM webhooks WHERE app = \(app) AND id = \(id)").affectedRows == 1
    }

    /// Puts events in the outbox in the order given, only when one of `app`'s webhooks takes `type`;
    /// `payloads` is built only then. Two statements at most, whatever the number of events: a batch of
    /// links must not pay a round trip per link, nor encode events nobody takes.
    public func enqueue(
        app: String, type: String, in tx: Transaction, payloads: () throws -> [SQLJSON]
    ) throws {
        let taken = try tx.query(
            "SELECT EXISTS (SELECT 1 FROM webhooks WHERE app = \(app) AND \(type) = ANY(events)) AS taken")
        guard try taken[0].bool("taken") else { return }
        let payloads = try payloads()
        guard !payloads.isEmpty else { return }
        try tx.query(
            """
            INSERT INTO webhook_events (app, type, payload)
            SELECT \(app), \(type), p.payload FROM unnest(\(payloads)::jsonb[]) WITH ORDINALITY AS p(payload, n)
            ORDER BY p.n
            """)
    }

    /// One `link.clicked` event per link of `counts` whose app has a webhook taking it, built in SQL from the
    /// counts just flushed: `{"domain", "code", "clicks": [{"day", "platform", "outcome", "source", "count"}]}`.
    public func enqueueClicks(_ counts: [ClickKey: Int], in tx: Transaction) throws {
        guard !counts.isEmpty else { return }
        let entries = Array(counts)
        try tx.query(
            """
            INSERT INTO webhook_events (app, type, payload)
            SELECT l.app, 'link.clicked', jsonb_build_object('domain', c.domain, 'code', c.code, 'clicks',
                jsonb_agg(jsonb_build_object('day', c.day, 'platform', c.platform, 'outcome', c.outcome,
                    'source', c.source, 'count', c.count) ORDER BY c.day, c.platform, c.outcome, c.source))
            FROM unnest(\(entries.map(\.key.domain))::text[], \(entries.map(\.key.code))::text[],
                \(entries.map(\.key.day))::text[], \(entries.map(\.key.platform))::text[],
                \(entries.map(\.key.outcome))::text[], \(entries.map(\.key.source))::text[],
                \(entries.map { Int64($0.value) })::bigint[]) AS c(domain, code, day, platform, outcome, source, count)
            JOIN links l ON l.domain = c.domain AND l.code = c.code
            WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.app = l.app AND 'link.clicked' = ANY(w.events))
            GROUP BY l.app, c.domain, c.code
            """)
    }

    /// Webhooks with events waiting after their cursor and no backoff pending at `now`.
    public func due(now: Date, in tx: Transaction) throws -> [StoredWebhook] {
        try tx.query(
            """
            SELECT \(Self.columns) FROM webhooks w
            WHERE (next_attempt_at IS NULL OR next_attempt_at <= \(RFC3339.string(now))::timestamptz)
                AND EXISTS (SELECT 1 FROM webhook_events e WHERE e.app = w.app AND e.id > w.cursor
                    AND e.type = ANY(w.events))
            ORDER BY next_attempt_at NULLS FIRST, id
            """
        ).map(decode)
    }

    /// The next events of `webhook`, in order, at most `limit`.
    public func pending(_ webhook: StoredWebhook, limit: Int, in tx: Transaction) throws -> [WebhookEventRow] {
        try tx.query(
            """
            SELECT id, type, payload::text AS payload, created_at FROM webhook_events
            WHERE app = \(webhook.app) AND id > \(webhook.cursor) AND type = ANY(\(webhook.webhook.events)::text[])
            ORDER BY id LIMIT \(limit)
            """
        ).map { row in
            WebhookEventRow(
                id: Int64(try row.int("id")), type: try row.string("type"), payload: try row.json("payload"),
                createTime: try row.date("created_at"))
        }
    }

    /// Records one delivery attempt and moves the webhook on: past `through` when it succeeded, else one
    /// more failure and the next attempt at `retryAt`. Keeps the last `API.WebhooksDeliveries.kept` log rows.
    public func record(
        webhook id: String, through: Int64?, retryAt: Date?, events: Int, status: Int?, error: String?,
        milliseconds: Int, in tx: Transaction
    ) throws {
        try tx.query(
            """
            UPDATE webhooks SET cursor = coalesce(\(through), cursor),
                failures = CASE WHEN \(through)::bigint IS NULL THEN failures + 1 ELSE 0 END,
                next_attempt_at = \(retryAt.map(RFC3339.string))::timestamptz
            WHERE id = \(id)
            """)
        try tx.query(
            """
            INSERT INTO webhook_deliveries (webhook, events, status, error, milliseconds)
            VALUES (\(id), \(events), \(status), \(error.map { String($0.prefix(300)) }), \(milliseconds))
            """)
        try tx.query(
            """
            DELETE FROM webhook_deliveries WHERE webhook = \(id) AND id <= (
                SELECT id FROM webhook_deliveries WHERE webhook = \(id) ORDER BY id DESC
                OFFSET \(API.WebhooksDeliveries.kept) LIMIT 1)
            """)
    }

    /// The webhook's latest deliveries, newest first.
    public func deliveries(webhook id: String, in tx: Transaction) throws -> [API.WebhooksDeliveries.Delivery] {
        try tx.query(
            """
            SELECT attempted_at, events, status, error, milliseconds FROM webhook_deliveries
            WHERE webhook = \(id) ORDER BY id DESC LIMIT \(API.WebhooksDeliveries.kept)
            """
        ).map { row in
            API.WebhooksDeliveries.Delivery(
                time: RFC3339.string(try row.date("attempted_at")), events: try row.int("events"),
                status: try row.optionalInt("status"), error: try row.optionalString("error"),
                milliseconds: try row.int("milliseconds"))
        }
    }

    /// Takes or renews the delivery lease for `holder` until `until`; false when another holds it.
    public func lease(holder: String, until: Date, now: Date, in tx: Transaction) throws -> Bool {
        try tx.query(
            """
            INSERT INTO webhook_lease (singleton, holder, until) VALUES (true, \(holder), \(RFC3339.string(until))::timestamptz)
            ON CONFLICT (singleton) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
            WHERE webhook_lease.holder = EXCLUDED.holder OR webhook_lease.until < \(RFC3339.string(now))::timestamptz
            RETURNING holder
            """
        ).count == 1
    }

    /// Deletes events older than `before` (delivered or not: a receiver down for days gets only what is left).
    public func prune(before: Date, in tx: Transaction) throws {
        try tx.query("DELETE FROM webhook_events WHERE created_at < \(RFC3339.string(before))::timestamptz")
    }

    private func decode(_ row: SQLRow) throws -> StoredWebhook {
        StoredWebhook(
            webhook: Webhook(
                id: try row.string("id"), url: try row.string("url"), events: try row.strings("events"),
                description: try row.optionalString("description")),
            app: try row.string("app"), secret: try row.string("secret"), createdBy: try row.string("created_by"),
            createTime: try row.date("created_at"), cursor: Int64(try row.int("cursor")),
            failures: try row.int("failures"), nextAttempt: try row.optionalDate("next_attempt_at"))
    }
}
