-- RouteRegistry schema, version 1.
-- Constraints do the work: the database refuses what the model forbids, whatever the caller.

-- A version as stored: its components padded with zeros to four, so integer[] ordering is version order.
CREATE DOMAIN version_key AS integer[]
    CHECK (
        VALUE IS NULL
        OR (array_ndims(VALUE) = 1 AND cardinality(VALUE) = 4
            AND array_position(VALUE, NULL) IS NULL AND 0 <= ALL (VALUE))
    );

-- A version as written (1-4 dot-separated numbers), kept for display.
CREATE DOMAIN version_text AS text
    CHECK (VALUE IS NULL OR VALUE ~ '^[0-9]{1,10}(\.[0-9]{1,10}){0,3}$');

CREATE DOMAIN resource_id AS text
    CHECK (VALUE IS NULL OR VALUE ~ '^[a-z][a-z0-9-]{0,62}$');

CREATE DOMAIN platform_name AS text
    CHECK (VALUE IS NULL OR VALUE IN ('ios', 'android'));

-- Rows of the append-only and immutable tables may only be inserted.
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'object_not_in_prerequisite_state';
END;
$$;

CREATE TABLE apps (
    id resource_id PRIMARY KEY,
    display_name text,
    -- NULL: the app has no iOS side.
    ios_app_ids text[],
    ios_webcredentials boolean,
    ios_app_clips text[],
    -- NULL: the app has no Android side.
    android_package text,
    android_fingerprints text[] NOT NULL DEFAULT '{}',
    schemes text[] NOT NULL DEFAULT '{}',
    fallback_query_item text NOT NULL DEFAULT 'ul_fallback' CHECK (fallback_query_item <> ''),
    fallback_value text NOT NULL DEFAULT '1' CHECK (fallback_value <> ''),
    default_case_sensitive boolean,
    default_percent_encoded boolean,
    etag bigint NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (ios_app_ids IS NOT NULL OR (ios_webcredentials IS NULL AND ios_app_clips IS NULL)),
    CHECK (android_package IS NOT NULL OR cardinality(android_fingerprints) = 0)
);

CREATE TABLE domains (
    host text PRIMARY KEY CHECK (host ~ '^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$'),
    alias_of text REFERENCES domains (host) ON DELETE RESTRICT CHECK (alias_of <> host),
    default_case_sensitive boolean,
    default_percent_encoded boolean,
    substitution_variables jsonb CHECK (substitution_variables IS NULL OR jsonb_typeof(substitution_variables) = 'object'),
    legacy_paths boolean,
    etag bigint NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE domain_apps (
    host text NOT NULL REFERENCES domains (host) ON DELETE CASCADE,
    app text NOT NULL REFERENCES apps (id) ON DELETE RESTRICT,
    position integer NOT NULL CHECK (position >= 0),
    PRIMARY KEY (host, app),
    UNIQUE (host, position)
);
CREATE INDEX domain_apps_app ON domain_apps (app);

CREATE TABLE routes (
    app text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    id resource_id NOT NULL,
    position integer NOT NULL CHECK (position >= 0),
    scheme text,
    path text,
    -- A string (matched against the whole query) or an object of named item patterns.
    query jsonb CHECK (query IS NULL OR jsonb_typeof(query) IN ('string', 'object')),
    fragment text,
    case_sensitive boolean,
    percent_encoded boolean,
    action text NOT NULL CHECK (action IN ('open', 'exclude')),
    comment text,
    web_fallback text,
    domains text[] NOT NULL DEFAULT '{}',
    etag bigint NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app, id),
    -- Deferrable so one UPDATE can shift or permute positions.
    UNIQUE (app, position) DEFERRABLE INITIALLY IMMEDIATE
);

CREATE TABLE route_platforms (
    app text NOT NULL,
    route text NOT NULL,
    platform platform_name NOT NULL,
    since version_key NOT NULL,
    since_text version_text NOT NULL,
    until version_key,
    until_text version_text,
    PRIMARY KEY (app, route, platform),
    FOREIGN KEY (app, route) REFERENCES routes (app, id) ON DELETE CASCADE,
    CHECK ((until IS NULL) = (until_text IS NULL))
);

CREATE TABLE route_switch_offs (
    app text NOT NULL,
    route text NOT NULL,
    platform platform_name NOT NULL,
    version version_key NOT NULL,
    version_text version_text NOT NULL,
    reason text,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app, route, platform, version),
    FOREIGN KEY (app, route) REFERENCES routes (app, id) ON DELETE CASCADE
);

CREATE TABLE releases (
    app text NOT NULL REFERENCES apps (id) ON DELETE RESTRICT,
    platform platform_name NOT NULL,
    version version_key NOT NULL,
    version_text version_text NOT NULL,
    state text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'live', 'retired')),
    etag bigint NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz,
    retired_at timestamptz,
    PRIMARY KEY (app, platform, version),
    CHECK (state <> 'live' OR published_at IS NOT NULL),
    CHECK (state <> 'retired' OR retired_at IS NOT NULL)
);

-- Generated documents; immutable. No foreign key to domains: history outlives a deleted domain.
CREATE TABLE revisions (
    host text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('aasa', 'assetlinks')),
    number integer NOT NULL CHECK (number > 0),
    bytes bytea NOT NULL,
    etag text NOT NULL,
    cause text NOT NULL,
    live_versions jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (host, kind, number)
);
CREATE TRIGGER revisions_immutable BEFORE UPDATE OR DELETE ON revisions
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER revisions_no_truncate BEFORE TRUNCATE ON revisions
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

CREATE TABLE audit (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    actor text NOT NULL,
    method text NOT NULL,
    resource text NOT NULL,
    before jsonb,
    after jsonb,
    request_id text
);
CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON audit
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

CREATE TABLE tokens (
    id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,64}$'),
    role text NOT NULL CHECK (role IN ('admin', 'releaser', 'reader')),
    -- Only the SHA-256 of the secret: a leaked table grants nothing.
    secret_sha256 bytea NOT NULL UNIQUE CHECK (length(secret_sha256) = 32),
    display_name text,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);
