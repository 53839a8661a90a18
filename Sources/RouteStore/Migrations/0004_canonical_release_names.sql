-- Resource names have one spelling: a release's version is written in its canonical form (three components
-- at least, a fourth only when it is not zero: 5 -> 5.0.0, 5.12 -> 5.12.0, 5.12.0.0 -> 5.12.0, 007 -> 7), as
-- Version.canonical writes it. Entries written before kept the caller's spelling (.../releases/0, .../0.0),
-- so Audit.List filtered on one spelling missed the others. Only the spelling of the name changes; who did
-- what, when, before and after are untouched, so the append-only trigger is lifted for this statement alone,
-- inside the migration's transaction.
ALTER TABLE audit DISABLE TRIGGER audit_append_only;

UPDATE audit SET resource = canonical.name
FROM (
    SELECT id,
        m[1] || padded[1] || '.' || padded[2] || '.' || padded[3]
            || CASE WHEN padded[4] <> 0 THEN '.' || padded[4] ELSE '' END || coalesce(m[3], '') AS name
    FROM (
        SELECT id, m,
            string_to_array(m[2], '.')::numeric[]
                || array_fill(0::numeric, ARRAY[4 - cardinality(string_to_array(m[2], '.'))]) AS padded
        FROM (
            SELECT id, regexp_match(resource, '^(apps/[^/]+/platforms/[^/]+/releases/)([0-9]+(?:\.[0-9]+){0,3})(/.*)?$') AS m
            FROM audit
            WHERE resource LIKE 'apps/%/platforms/%/releases/%'
        ) matched
        WHERE m IS NOT NULL
    ) parsed
) canonical
WHERE audit.id = canonical.id AND audit.resource <> canonical.name;

ALTER TABLE audit ENABLE TRIGGER audit_append_only;
