-- routereg: expand
-- The fingerprint of the params each requestId was first sent with (issue 42): the SHA-256 of the method's params,
-- requestId left out, as canonical JSON. The same key with other params is refused instead of answered with the
-- first call's outcome. A nullable column the previous release neither reads nor writes: during a rolling upgrade
-- its servers record rows without one, and a retry of such a row is replayed without comparing, as before.
ALTER TABLE write_requests ADD COLUMN params_sha256 text
    CHECK (params_sha256 IS NULL OR params_sha256 ~ '^[0-9a-f]{64}$');
