-- routereg: expand
-- Routes as code (issue 44): which routes a manifest manages, so a prune removes only those.
--
-- Manifests.Apply marks every route of the manifest it applies (created or adopted) with the manifest's source
-- (its commit or origin, as the caller named it; NULL when it named none) and the time of the apply. A route
-- whose manifest_applied_at is NULL is managed by hand: a prune keeps it.
--
-- Expand only: both columns are nullable, so servers of the previous release keep working against this schema
-- (they neither read nor write them; a route they create is unmanaged).
ALTER TABLE routes ADD COLUMN manifest_source text;
ALTER TABLE routes ADD COLUMN manifest_applied_at timestamptz;
