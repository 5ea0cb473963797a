-- Console sessions kept on the server (server/auth/sessions.ts). The session cookie names its row
-- (the JWT's `sid`), and every request checks the row is live, so signing out, a password change
-- or reset, disabling the SSO provider a session came through, or removing the member from the
-- tenant it was scoped to ends the session at once, copied cookies included.
CREATE TABLE console_sessions (
  id text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- Set for an SSO sign-in: the session reaches this tenant only, through this provider.
  sso_tenant_id uuid,
  sso_provider_id uuid,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  last_seen_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at timestamptz(3) NOT NULL,
  -- Where the session was last seen from (its sign-in, then at most every few minutes).
  ip text,
  user_agent text,
  ended_at timestamptz(3),
  -- signed_out | signed_out_everywhere | ended_by_user | password_changed | password_reset |
  -- provider_disabled | provider_deleted | member_removed
  end_reason text
);
CREATE INDEX console_sessions_user_id_idx ON console_sessions (user_id);
CREATE INDEX console_sessions_sso_provider_id_idx ON console_sessions (sso_provider_id) WHERE sso_provider_id IS NOT NULL;

-- Tokens minted in a session signed in through an SSO provider name it: disabling or deleting
-- the provider revokes them with its sessions.
ALTER TABLE api_tokens ADD COLUMN sso_provider_id uuid;
CREATE INDEX api_tokens_sso_provider_id_idx ON api_tokens (sso_provider_id) WHERE sso_provider_id IS NOT NULL;

-- Replaced by the sessions' own rows: a password reset ends them.
ALTER TABLE users DROP COLUMN sessions_valid_after;
