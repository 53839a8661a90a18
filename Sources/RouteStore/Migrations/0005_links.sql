-- Short links (the links service): a domain may be a link domain, an app may name its App Store id, and
-- links live in a table of their own, outside the generated documents: creating one regenerates nothing.
-- Expand only: servers of the previous release keep working against this schema.
ALTER TABLE domains ADD COLUMN links boolean;
ALTER TABLE apps ADD COLUMN ios_app_store_id text CHECK (ios_app_store_id ~ '^[0-9]{1,12}$');

CREATE TABLE links (
    domain text NOT NULL REFERENCES domains (host) ON DELETE RESTRICT,
    code text NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{1,64}$'),
    app text NOT NULL REFERENCES apps (id) ON DELETE RESTRICT,
    target text NOT NULL CHECK (length(target) <= 2048),
    desktop_url text CHECK (length(desktop_url) <= 2048),
    preview_title text CHECK (length(preview_title) <= 300),
    preview_description text CHECK (length(preview_description) <= 1000),
    preview_image_url text CHECK (length(preview_image_url) <= 2048),
    ios_min_version text,
    ios_fallback_url text CHECK (length(ios_fallback_url) <= 2048),
    android_min_version text,
    android_fallback_url text CHECK (length(android_fallback_url) <= 2048),
    expires_at timestamptz,
    skip_landing boolean,
    created_by text NOT NULL,
    -- A deleted link keeps its row (its code is never handed out again, and it answers 404).
    deleted_at timestamptz,
    etag bigint NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    -- Which link writes a server has seen: links changed after a known value are reloaded.
    change_id bigint NOT NULL,
    PRIMARY KEY (domain, code)
);
CREATE SEQUENCE link_changes;
ALTER TABLE links ALTER COLUMN change_id SET DEFAULT nextval('link_changes');
CREATE INDEX links_app ON links (app, domain, code);
CREATE INDEX links_change ON links (change_id);

-- Clicks per link, day, platform and outcome; no address or user agent is ever stored.
CREATE TABLE link_clicks (
    domain text NOT NULL,
    code text NOT NULL,
    day date NOT NULL,
    platform text NOT NULL CHECK (platform IN ('ios', 'android', 'desktop', 'crawler')),
    outcome text NOT NULL CHECK (outcome IN ('crawler', 'landing', 'redirect', 'not_found')),
    count bigint NOT NULL CHECK (count >= 0),
    PRIMARY KEY (domain, code, day, platform, outcome)
);
