-- routereg: expand
-- Where a click came from (issue 45): a QR code's scan (`?qr=1`) is counted apart from a tap on the link.
--
-- link_clicks keeps the taps, as before. Its primary key is what the previous release's flush names in
-- ON CONFLICT (domain, code, day, platform, outcome), so widening it would break that server's flushes during a
-- rolling upgrade: clicks of any other source get this table of their own, keyed by source as well, and
-- Links.Stats reads both. The click retention prunes both.
CREATE TABLE link_click_sources (
    domain text NOT NULL,
    code text NOT NULL,
    day date NOT NULL,
    platform text NOT NULL CHECK (platform IN ('ios', 'android', 'desktop', 'crawler')),
    outcome text NOT NULL CHECK (outcome IN ('crawler', 'landing', 'redirect')),
    source text NOT NULL CHECK (source IN ('qr')),
    count bigint NOT NULL CHECK (count >= 0),
    PRIMARY KEY (domain, code, day, platform, outcome, source)
);
CREATE INDEX link_click_sources_day ON link_click_sources (day);
