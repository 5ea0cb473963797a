-- Directory Sync (server/directories): a customer's identity provider pushes its people and groups
-- here through SCIM 2.0 (one endpoint and one bearer token per directory), and the platform keeps
-- them, tells the SaaS's apps and acts on deprovisioning. Only the token's hash is kept.
CREATE TABLE directories (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name text NOT NULL,
  -- okta | entra_id | google_workspace | onelogin | jumpcloud | generic: picks the setup steps and
  -- the few answers IdPs disagree on.
  provider text NOT NULL DEFAULT 'generic'
    CHECK (provider IN ('okta', 'entra_id', 'google_workspace', 'onelogin', 'jumpcloud', 'generic')),
  enabled boolean NOT NULL DEFAULT true,
  token_hash text NOT NULL UNIQUE,
  -- The token's last characters, so an admin can tell which token an IdP holds.
  token_hint text NOT NULL,
  -- The console role of a directory user in no mapped group: viewer, admin, or null (no membership).
  default_role text CHECK (default_role IN ('viewer', 'admin')),
  -- [{group, role}]: a group by display name or IdP id → a console role; the first match wins.
  role_mappings jsonb NOT NULL DEFAULT '[]',
  last_request_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX directories_tenant_id_created_at_id_idx ON directories (tenant_id, created_at, id);

-- A SCIM User. `resource` is the resource as the IdP gave it (core attributes and extensions under
-- their canonical names, without id and meta); the columns beside it are copies kept for indexes,
-- filters and the read API.
CREATE TABLE directory_users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  directory_id uuid NOT NULL REFERENCES directories(id) ON DELETE CASCADE,
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  external_id text,
  user_name text NOT NULL,
  -- userName is unique per directory regardless of case (RFC 7643 §4.1.1: caseExact false).
  user_name_lower text COLLATE "C" GENERATED ALWAYS AS (lower(user_name)) STORED,
  active boolean NOT NULL DEFAULT true,
  given_name text,
  family_name text,
  -- The primary (else first) email, lowercase: what links the person to a console user.
  primary_email text,
  resource jsonb NOT NULL,
  -- Bumped on every change: meta.version is W/"<version>".
  version integer NOT NULL DEFAULT 1,
  -- The console user this person is (matched by email), once linked.
  user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  -- The console role the directory gives them (role mappings, else the default role); null: none.
  role text CHECK (role IN ('viewer', 'admin')),
  -- When the IdP deactivated or deleted them; null while active.
  deprovisioned_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX directory_users_directory_id_user_name_lower_key ON directory_users (directory_id, user_name_lower);
CREATE INDEX directory_users_directory_id_created_at_id_idx ON directory_users (directory_id, created_at, id);
CREATE INDEX directory_users_directory_id_external_id_idx ON directory_users (directory_id, external_id);
CREATE INDEX directory_users_tenant_id_primary_email_idx ON directory_users (tenant_id, primary_email);
CREATE INDEX directory_users_user_id_idx ON directory_users (user_id);

CREATE TABLE directory_groups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  directory_id uuid NOT NULL REFERENCES directories(id) ON DELETE CASCADE,
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  external_id text,
  display_name text NOT NULL,
  display_name_lower text COLLATE "C" GENERATED ALWAYS AS (lower(display_name)) STORED,
  resource jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX directory_groups_directory_id_created_at_id_idx ON directory_groups (directory_id, created_at, id);
CREATE INDEX directory_groups_directory_id_display_name_lower_idx ON directory_groups (directory_id, display_name_lower);
CREATE INDEX directory_groups_directory_id_external_id_idx ON directory_groups (directory_id, external_id);

CREATE TABLE directory_group_members (
  group_id uuid NOT NULL REFERENCES directory_groups(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES directory_users(id) ON DELETE CASCADE,
  directory_id uuid NOT NULL REFERENCES directories(id) ON DELETE CASCADE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX directory_group_members_user_id_idx ON directory_group_members (user_id);
CREATE INDEX directory_group_members_directory_id_idx ON directory_group_members (directory_id);

-- Every SCIM request a directory received (kept 30 days): the "sync activity" an admin reads when
-- an IdP says provisioning failed. No token and no bodies: a one-line summary.
CREATE TABLE scim_requests (
  id bigserial PRIMARY KEY,
  directory_id uuid NOT NULL REFERENCES directories(id) ON DELETE CASCADE,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  duration_ms integer NOT NULL,
  summary text NOT NULL,
  scim_type text,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX scim_requests_directory_id_created_at_idx ON scim_requests (directory_id, created_at);
CREATE INDEX scim_requests_created_at_idx ON scim_requests (created_at);

-- A setup link for directory sync works on one directory (made when the IT admin starts).
ALTER TABLE setup_links ADD COLUMN directory_id uuid;
