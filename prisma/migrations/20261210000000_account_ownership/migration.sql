-- People belong to the tenant that proves it (issue 38). A directory links, creates and governs
-- only accounts whose email is in one of its tenant's verified domains, and governs only the
-- memberships it created or captured; a tenant always keeps an admin.

-- A directory may be opted in to govern members who joined another way (off by default).
ALTER TABLE directories ADD COLUMN governs_existing_members BOOLEAN NOT NULL DEFAULT false;

-- Why a directory user is not linked to an account: outside_verified_domains, no_email, no_account.
ALTER TABLE directory_users ADD COLUMN unlinked_reason TEXT;

-- The directory that governs the membership (created or captured it); null: the membership is the
-- tenant admins' (invited, added by an operator, joined by SSO). review_reason flags a membership
-- for the admins' review (set by this upgrade).
ALTER TABLE memberships ADD COLUMN directory_id UUID;
ALTER TABLE memberships ADD COLUMN review_reason TEXT;
ALTER TABLE memberships ADD CONSTRAINT memberships_directory_id_fkey
  FOREIGN KEY (directory_id) REFERENCES directories(id) ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX memberships_directory_id_idx ON memberships (directory_id);

-- A signed-in person's pending invitations (GET /me/invitations, and the landing page) are found
-- by email across tenants.
CREATE INDEX invitations_email_idx ON invitations (email);

-- The upgrade. A directory user linked to an account outside the tenant's verified domains is
-- unlinked; the membership of that account stays, flagged for review. Nothing is deleted.
UPDATE memberships m SET review_reason = 'directory_outside_verified_domains'
  FROM directory_users d
 WHERE d.user_id = m.user_id AND d.tenant_id = m.tenant_id
   AND NOT EXISTS (SELECT 1 FROM domains v WHERE v.tenant_id = d.tenant_id AND v.state = 'verified'
                    AND v.domain = substring(d.primary_email from '@([^@]*)$'));
UPDATE directory_users d
   SET user_id = NULL,
       unlinked_reason = CASE WHEN d.primary_email IS NULL THEN 'no_email' ELSE 'outside_verified_domains' END
 WHERE d.primary_email IS NULL
    OR NOT EXISTS (SELECT 1 FROM domains v WHERE v.tenant_id = d.tenant_id AND v.state = 'verified'
                    AND v.domain = substring(d.primary_email from '@([^@]*)$'));
UPDATE directory_users SET unlinked_reason = 'no_account' WHERE user_id IS NULL AND unlinked_reason IS NULL;

-- A membership the directory made (the member's latest user.created in the tenant says
-- method directory) stays governed by a directory that still links them; every other membership
-- is the admins'.
UPDATE memberships m SET directory_id = governing.directory_id
  FROM (
    SELECT DISTINCT ON (d.tenant_id, d.user_id) d.tenant_id, d.user_id, d.directory_id
      FROM directory_users d
     WHERE d.user_id IS NOT NULL
     ORDER BY d.tenant_id, d.user_id, d.active DESC, d.updated_at DESC
  ) governing
 WHERE governing.tenant_id = m.tenant_id AND governing.user_id = m.user_id
   AND (SELECT e.details->>'method' FROM audit_events e
         WHERE e.tenant_id = m.tenant_id AND e.event_type = 'user.created' AND e.target_id = m.user_id::text
         ORDER BY e.sequence DESC LIMIT 1) = 'directory';

-- The last admin, kept by the members service on every path (server/members/admins.ts). This is
-- its backstop: at COMMIT, a transaction that demoted or removed an admin fails if its tenant (still
-- there) has none left. The advisory lock, taken at the change, queues two transactions removing
-- two admins of one tenant, so the second's check sees the first's commit.
CREATE FUNCTION memberships_admin_change_lock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('tenant_admins:' || OLD.tenant_id::text, 0));
  RETURN NULL;
END $$;

CREATE FUNCTION memberships_keep_an_admin() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP = 'DELETE' OR NEW.role IS DISTINCT FROM 'admin')
     AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = OLD.tenant_id)
     AND NOT EXISTS (SELECT 1 FROM memberships a WHERE a.tenant_id = OLD.tenant_id AND a.role = 'admin') THEN
    RAISE EXCEPTION 'tenant % would be left without an admin', OLD.tenant_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'memberships_last_admin';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER memberships_admin_removed_lock AFTER DELETE ON memberships
  FOR EACH ROW WHEN (OLD.role = 'admin') EXECUTE FUNCTION memberships_admin_change_lock();
CREATE TRIGGER memberships_admin_demoted_lock AFTER UPDATE OF role ON memberships
  FOR EACH ROW WHEN (OLD.role = 'admin' AND NEW.role IS DISTINCT FROM 'admin') EXECUTE FUNCTION memberships_admin_change_lock();
CREATE CONSTRAINT TRIGGER memberships_last_admin_removed AFTER DELETE ON memberships
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.role = 'admin') EXECUTE FUNCTION memberships_keep_an_admin();
CREATE CONSTRAINT TRIGGER memberships_last_admin_demoted AFTER UPDATE OF role ON memberships
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.role = 'admin' AND NEW.role IS DISTINCT FROM 'admin') EXECUTE FUNCTION memberships_keep_an_admin();
