-- routereg: expand
-- Scoped, expiring tokens (issue 31): a token may be limited to some apps and may expire, and its last use
-- is recorded (in batches, not per request). Audit entries name the apps a write touched, so a scoped
-- token's `Audit.List` shows only its apps' entries.
--
-- Expand only: servers of the previous release keep working against this schema. They do not know scopes
-- or expiry, so a token that has either is stored under a domain-separated hash (SHA-256 of
-- "routereg-scoped-token:" and the secret, TokenRepository.restrictedHashPrefix): an older server never
-- matches it and refuses it UNAUTHENTICATED, instead of granting its role on every app forever.
ALTER TABLE tokens ADD COLUMN apps text[] CHECK (apps IS NULL OR cardinality(apps) BETWEEN 1 AND 100);
ALTER TABLE tokens ADD COLUMN expires_at timestamptz;
ALTER TABLE tokens ADD COLUMN last_used_at timestamptz;
-- NULL for entries written before this migration (or by an older server): those are matched by their
-- resource name (`apps/{app}/…`) instead.
ALTER TABLE audit ADD COLUMN apps text[];
