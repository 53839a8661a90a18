-- routereg: expand
-- Links that marketers run (issue 45): a campaign, tags, and a switch.
--
-- 1. `utm`: the link's campaign, the five UTM values as one JSON object ({"source": "newsletter", ...}); what
--    `Links.List` filters by is its `campaign`. `tags`: labels to group links, at most 20.
-- 2. `disabled`: a link switched off answers 404 like an expired one, until switched on again (the console's
--    Disable used to set the expiry from the browser's clock).
-- 3. A visit to a disabled link is a miss of its own kind.
--
-- Expand only: nullable columns a previous-release server neither reads nor writes (its Links.Update names
-- its own columns, so it leaves them as they are; during a rolling upgrade it serves a disabled link until it
-- is replaced), and a CHECK that accepts everything it accepted before.
ALTER TABLE links
    ADD COLUMN utm jsonb CHECK (utm IS NULL OR (jsonb_typeof(utm) = 'object' AND length(utm::text) <= 2048)),
    ADD COLUMN tags text[] CHECK (tags IS NULL OR cardinality(tags) <= 20),
    ADD COLUMN disabled boolean;
CREATE INDEX links_tags ON links USING gin (tags) WHERE deleted_at IS NULL;

ALTER TABLE link_misses DROP CONSTRAINT link_misses_outcome_check;
ALTER TABLE link_misses ADD CONSTRAINT link_misses_outcome_check
    CHECK (outcome IN ('unknown', 'expired', 'deleted', 'refused', 'disabled'));
