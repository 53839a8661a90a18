-- A random token per audited write, so a snapshot names the exact state it was built from.
--
-- max(audit.id) alone is not an identity: after a failover that lost acknowledged writes, the new primary
-- hands out the lost ids again for different writes, and a server holding the lost state would take it for
-- current. (generation, write_token) cannot repeat. The volatile default gives every existing row its own
-- token (ADD COLUMN with a volatile default rewrites the table; no row trigger fires) and every insert one,
-- whichever build made it.
ALTER TABLE audit ADD COLUMN write_token uuid NOT NULL DEFAULT gen_random_uuid();
