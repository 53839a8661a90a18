-- routereg: expand
-- Webhooks (issue 45): an app's link events POSTed, signed, to its team's receivers.
--
-- webhook_events is an outbox: a link write inserts its event in the write's own transaction, and the click
-- flush inserts each link's clicks since the last flush, both only when the app has a webhook taking that
-- type, so nothing accumulates for apps without one. One server of a fleet delivers at a time (the lease in
-- webhook_lease); each webhook keeps its place (`cursor`: the last event delivered), so events reach a
-- receiver in order, in batches, retried with backoff after a failure. Events are kept 3 days, deliveries' log
-- the last 100 per webhook.
--
-- Expand only: new tables. The previous release never reads them, and writes no events (so links it writes
-- during a rolling upgrade send none).
CREATE TABLE webhooks (
    id text PRIMARY KEY CHECK (id ~ '^wh_[0-9a-f]{16}$'),
    app text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    url text NOT NULL CHECK (length(url) <= 2048),
    events text[] NOT NULL CHECK (cardinality(events) BETWEEN 1 AND 4),
    description text CHECK (length(description) <= 300),
    secret text NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- The last event delivered, and the first event it may receive (none from before it existed).
    cursor bigint NOT NULL DEFAULT 0,
    failures integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz
);
CREATE INDEX webhooks_app ON webhooks (app);

CREATE TABLE webhook_events (
    id bigserial PRIMARY KEY,
    app text NOT NULL,
    type text NOT NULL CHECK (type IN ('link.created', 'link.updated', 'link.deleted', 'link.clicked')),
    payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_app ON webhook_events (app, id);
CREATE INDEX webhook_events_created ON webhook_events (created_at);

CREATE TABLE webhook_deliveries (
    id bigserial PRIMARY KEY,
    webhook text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    attempted_at timestamptz NOT NULL DEFAULT now(),
    events integer NOT NULL,
    status integer,
    error text CHECK (length(error) <= 300),
    milliseconds integer NOT NULL
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook, id DESC);

-- Who delivers: one row, taken for a while by one server and renewed while it works.
CREATE TABLE webhook_lease (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    holder text NOT NULL,
    until timestamptz NOT NULL
);
