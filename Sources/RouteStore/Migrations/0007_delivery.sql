-- routereg: expand
-- The delivery watch: what Apple's CDN and Google's Digital Asset Links API serve per domain, observed by one
-- server of the fleet at a time and read by all. Rows older than the retention (30 days) are deleted by the
-- observer. Expand only: servers of the previous release keep working against this schema.
CREATE TABLE delivery_observations (
    id bigserial PRIMARY KEY,
    host text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('aasa', 'assetlinks')),
    observed_at timestamptz NOT NULL DEFAULT now(),
    -- served: a JSON document; unchanged: 304 to a conditional request (what was served before still is);
    -- not_found: 404; the rest: no usable answer, and what the service serves is unknown.
    outcome text NOT NULL CHECK (outcome IN (
        'served', 'unchanged', 'not_found', 'http_error', 'timeout', 'too_large', 'invalid_json', 'network_error')),
    http_status integer,
    size integer,
    -- SHA-256 (hex) of the bytes served, and of their meaning (canonical JSON): what matching compares.
    sha256 text,
    canonical_sha256 text,
    -- The newest revision of ours with the same meaning; NULL for a document we never published.
    matched_revision integer,
    -- Since when the service serves this meaning (carried over from earlier observations while it is the same).
    serving_since timestamptz,
    -- Validators for the next conditional request.
    etag text CHECK (length(etag) <= 512),
    last_modified text CHECK (length(last_modified) <= 512),
    error text CHECK (length(error) <= 500),
    duration_ms integer
);
CREATE INDEX delivery_observations_latest ON delivery_observations (host, kind, id DESC);
CREATE INDEX delivery_observations_time ON delivery_observations (observed_at);
