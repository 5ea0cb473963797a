-- Verified domains (server/domains): a tenant proves it owns an email domain with a DNS TXT
-- record before the domain may route sign-ins. The same domain may be pending in several tenants;
-- once one verifies it, no other may (domains_verified_domain_key, partial: the backstop of the
-- service's 409 when two tenants verify at once).
CREATE TABLE domains (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  -- Lowercase ASCII (punycode), no trailing dot.
  domain text NOT NULL,
  -- pending | verified | failed
  state text NOT NULL DEFAULT 'pending',
  -- The TXT value that proves ownership, random per domain.
  verification_value text NOT NULL,
  -- How it was verified: dns | override (an operator's word, with its reason in the audit log).
  verification_method text,
  verified_at timestamptz(3),
  last_checked_at timestamptz(3),
  -- match | wrong_value | no_record | unavailable: the last lookup's outcome, and why it did not match.
  last_check_result text,
  last_error text,
  -- Checks done while pending (the backoff's step); housekeeping's next look, null when none is due.
  check_count integer NOT NULL DEFAULT 0,
  next_check_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX domains_tenant_id_domain_key ON domains (tenant_id, domain);
CREATE UNIQUE INDEX domains_verified_domain_key ON domains (domain) WHERE state = 'verified';
CREATE INDEX domains_tenant_id_created_at_id_idx ON domains (tenant_id, created_at, id);
CREATE INDEX domains_next_check_at_idx ON domains (next_check_at) WHERE next_check_at IS NOT NULL;
