-- routereg: expand
-- Expiry by click count (issue 45): a link with max_clicks stops (404, an `expired` miss) once people clicked it
-- that many times; bots (the crawler platform) do not count. A nullable column the previous release neither
-- reads nor writes: during a rolling upgrade its servers serve such a link past its count.
ALTER TABLE links ADD COLUMN max_clicks bigint CHECK (max_clicks IS NULL OR max_clicks BETWEEN 1 AND 1000000000);
