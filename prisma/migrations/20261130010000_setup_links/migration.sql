-- Setup links (server/setup-links): a tenant admin hands a customer's IT admin a one-time URL to a
-- guided flow (SSO, directory sync or domain verification) in one tenant, without an account.
-- Only the token's hash is kept; the URL is shown once.
CREATE TABLE setup_links (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  -- sso | directory_sync | domain_verification
  intent text NOT NULL CHECK (intent IN ('sso', 'directory_sync', 'domain_verification')),
  token_hash text NOT NULL UNIQUE,
  -- The SSO provider the link works on: given when the link is for an existing provider (its
  -- certificate update, say), or reserved when the IT admin picks their IdP and then created with
  -- this id, so the values they paste into their IdP (ACS URL, entity ID) do not change.
  sso_provider_id uuid,
  -- `sso`: the IdP the IT admin said they use (okta, entra_id, …), which picks the guided steps.
  idp text,
  -- Who made it (a user, or null for the CLI), and their email as it was then, for the audit log.
  created_by_id uuid REFERENCES users(id) ON DELETE SET NULL,
  created_by_email text,
  expires_at timestamptz(3) NOT NULL,
  revoked_at timestamptz(3),
  last_opened_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX setup_links_tenant_id_created_at_id_idx ON setup_links (tenant_id, created_at, id);

-- A browser's session started from a link (4 hours; the cookie holds a token, only its hash here).
CREATE TABLE setup_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  link_id uuid NOT NULL REFERENCES setup_links(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz(3) NOT NULL,
  ip text,
  user_agent text,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX setup_sessions_link_id_idx ON setup_sessions (link_id);
