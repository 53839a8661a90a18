-- routereg: expand
-- Ownership of names (issue 41).
--
-- 1. The host patterns an app may create domains under (`App.hosts`: `rt.example.com`, `*.rt.example.com`),
--    set by an admin for every app. NULL: none, so a token scoped to the app creates no domain.
--    Expand: a nullable column. A previous-release server neither reads nor writes it; its Apps.Update
--    leaves it as it is (it names only its own columns).
ALTER TABLE apps ADD COLUMN hosts text[] CHECK (hosts IS NULL OR cardinality(hosts) <= 100);

-- 2. A domain whose links are all deleted can be deleted again. The foreign key from links to domains
--    made every soft-deleted link row pin its domain forever. It becomes two triggers that keep what the
--    key meant for live links only: a live link needs its domain (checked with the same FOR KEY SHARE lock a
--    foreign key takes), and a domain with a live link cannot be deleted. Deleted rows stay where they are,
--    with their (domain, code) primary key, so a deleted code stays unusable, also on a domain created again
--    under the same host.
--
--    Expand: this only relaxes a constraint, for rows the previous release never touches again (it updates
--    and deletes live links only). The previous release still gets its refusals, with the SQLSTATE the
--    foreign key raised (23503, foreign_key_violation), which it maps as before: deleting a domain that has
--    live links still fails, and a link still needs its domain. What it gains is that deleting a domain whose
--    links are all deleted now succeeds there too.
ALTER TABLE links DROP CONSTRAINT links_domain_fkey;
CREATE INDEX links_live_domain ON links (domain) WHERE deleted_at IS NULL;

CREATE FUNCTION links_require_domain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM domains WHERE host = NEW.domain FOR KEY SHARE) THEN
        RAISE EXCEPTION 'link % on % names no domain', NEW.code, NEW.domain USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER links_require_domain BEFORE INSERT OR UPDATE ON links
    FOR EACH ROW EXECUTE FUNCTION links_require_domain();

CREATE FUNCTION domains_refuse_live_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM links WHERE domain = OLD.host AND deleted_at IS NULL) THEN
        RAISE EXCEPTION 'domain % has live links', OLD.host USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN OLD;
END;
$$;
CREATE TRIGGER domains_refuse_live_links BEFORE DELETE ON domains
    FOR EACH ROW EXECUTE FUNCTION domains_refuse_live_links();
