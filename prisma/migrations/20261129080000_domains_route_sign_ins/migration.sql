-- Domains route SSO sign-ins only when verified (issue 22, item 2). An enabled provider's domains
-- must be verified domains of its tenant; a person who is not yet a member joins through SSO only
-- by a verified domain with auto_join on.
ALTER TABLE domains ADD COLUMN auto_join boolean NOT NULL DEFAULT false;
-- Set only by this migration: a domain a provider routed before domains were verified keeps
-- routing (and auto-joining, as it did) while it is pending, until its first failed verification
-- seven days later; verifying it makes that permanent, failing ends it.
ALTER TABLE domains ADD COLUMN routes_while_pending boolean NOT NULL DEFAULT false;

INSERT INTO domains (tenant_id, domain, state, verification_value, auto_join, routes_while_pending, next_check_at)
SELECT DISTINCT s.tenant_id, s.domain, 'pending',
       'control-plane-verification=' || replace(gen_random_uuid()::text, '-', ''), true, true, now()
  FROM sso_domains s
ON CONFLICT (tenant_id, domain) DO NOTHING;
