/**
 * What a tenant's directories say about a person signing in through the tenant's SSO providers
 * (server/sso/signin/complete.ts): nothing (not a directory user), deprovisioned (every directory
 * user of that email is inactive: sign-in refused), or active, with the role and groups the
 * directory gives them. Matched on the directory user's primary email, as linking is, and only for
 * an email in one of the tenant's verified domains: a directory has no say over anyone else.
 */
import type { SqlStatements } from "../db/sql.ts";
import type { TenantRole } from "../auth/principal.ts";
import { asDirectoryRole, broaderRole } from "./lifecycle-roles.ts";
import { domainOf } from "../domains/index.ts";

export type DirectoryStanding =
  { state: "deprovisioned" } | { state: "active"; directoryUserId: string; directoryId: string; role: TenantRole | null; groups: string[] };

interface StandingRow {
  id: string;
  directory_id: string;
  active: boolean;
  role: string | null;
  groups: string[];
}

export async function directoryStandingOf(sql: SqlStatements, tenantId: string, email: string): Promise<DirectoryStanding | null> {
  const domain = domainOf(email);
  if (!domain) return null;
  const rows = await sql.query<StandingRow>(
    `SELECT d.id::text AS id, d.directory_id::text AS directory_id, d.active, d.role,
            ARRAY(SELECT g.display_name FROM directory_group_members m JOIN directory_groups g ON g.id = m.group_id
                   WHERE m.user_id = d.id ORDER BY g.display_name) AS groups
       FROM directory_users d
      WHERE d.tenant_id = $1::uuid AND d.primary_email = $2
        AND EXISTS (SELECT 1 FROM domains v WHERE v.tenant_id = d.tenant_id AND v.domain = $3 AND v.state = 'verified')
      ORDER BY d.active DESC, d.updated_at DESC, d.id
      LIMIT 20`,
    [tenantId, email.trim().toLowerCase(), domain],
  );
  const active = rows.filter((r) => r.active);
  if (rows.length === 0) return null;
  if (active.length === 0) return { state: "deprovisioned" };
  // The person may be in several directories of the tenant: the broadest role, the newest user's id.
  const role = active.reduce<TenantRole | null>((r, row) => broaderRole(r, asDirectoryRole(row.role)), null);
  const groups = [...new Set(active.flatMap((r) => r.groups))].sort();
  return { state: "active", directoryUserId: active[0]!.id, directoryId: active[0]!.directory_id, role, groups };
}
