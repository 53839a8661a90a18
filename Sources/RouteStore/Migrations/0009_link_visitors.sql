-- routereg: expand
-- Anonymous visitors of a link domain (issue 41): what they cost is bounded, and what they write is not shown.
--
-- A visit to an unknown, expired or deleted code (or a long link that is not served) is counted per domain,
-- day and outcome, never as a row holding the code the visitor typed: link_misses has at most a few rows per
-- link domain and day. link_clicks keeps the clicks of known links; its rows are deleted after the server's
-- click retention (`serve --click-retention-days`), oldest days first, which the day index serves.
--
-- A domain's owner may show the social preview a long link carries (FDL's st, sd, si); off (NULL) unless
-- turned on.
--
-- Expand only: servers of the previous release keep working against this schema (they keep writing their
-- misses into link_clicks as `not_found`, which the retention deletes in time, and ignore the new column).
ALTER TABLE domains ADD COLUMN long_link_previews boolean;

CREATE TABLE link_misses (
    domain text NOT NULL,
    day date NOT NULL,
    outcome text NOT NULL CHECK (outcome IN ('unknown', 'expired', 'deleted', 'refused')),
    count bigint NOT NULL CHECK (count >= 0),
    PRIMARY KEY (domain, day, outcome)
);
CREATE INDEX link_misses_day ON link_misses (day);
CREATE INDEX link_clicks_day ON link_clicks (day);
