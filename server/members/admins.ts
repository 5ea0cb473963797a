/**
 * The last-admin rule, with one owner: a tenant that has an admin keeps one, on every path that
 * can take admin away (a member removed or demoted in the console or the API, a directory's
 * deprovisioning, role mappings and default role, an SSO provider deleted or turned off). Each
 * path locks the tenant's admins with `TenantAdmins.lock` and asks it before each change; a
 * deferred constraint trigger on `memberships` (migration 20261210000000_account_ownership) is the
 * backstop that fails a transaction which would leave the tenant without an admin anyway.
 */
import { type Tx, sqlIn } from "../db/client.ts";
import { Conflict } from "../errors.ts";
import type { TenantRole } from "../auth/principal.ts";

export const lastAdminConflict = (action: string) => Conflict(`Cannot ${action} the tenant's last admin: make another member admin first`);

/** The tenant's admins as a transaction's changes go, counted from their locked rows. */
export class TenantAdmins {
  private constructor(private readonly admins: Set<string>) {}

  /** Locks the tenant's admin memberships, so concurrent changes cannot remove the last admin. */
  static async lock(tx: Tx, tenantId: string): Promise<TenantAdmins> {
    const rows = await sqlIn(tx).query<{ user_id: string }>(
      `SELECT user_id::text AS user_id FROM memberships WHERE tenant_id = $1::uuid AND role = 'admin' ORDER BY user_id FOR UPDATE`,
      [tenantId],
    );
    return new TenantAdmins(new Set(rows.map((r) => r.user_id)));
  }

  get count(): number {
    return this.admins.size;
  }

  /**
   * Whether the member may take `to` (null: leave the tenant) and leave an admin behind; when it
   * may, the change is counted, so the next question sees it.
   */
  allows(userId: string, to: TenantRole | null): boolean {
    if (to === "admin") {
      this.admins.add(userId);
      return true;
    }
    if (!this.admins.has(userId)) return true;
    if (this.admins.size <= 1) return false;
    this.admins.delete(userId);
    return true;
  }

  /** `allows`, or the 409 that names the action ("remove", "demote"). */
  assert(userId: string, to: TenantRole | null, action: string): void {
    if (!this.allows(userId, to)) throw lastAdminConflict(action);
  }
}

/**
 * Whether the tenant would keep an admin who can sign in without the SSO provider `providerId`: an
 * admin with a password, or whose email's domain another enabled provider of the tenant routes.
 * A tenant where no admin can sign in today loses nothing by the change, so it answers true.
 */
export async function keepsAnAdminWhoCanSignIn(tx: Tx, tenantId: string, providerId: string): Promise<boolean> {
  const [row] = await sqlIn(tx).query<{ now: boolean; after: boolean }>(
    `WITH admins AS (
       SELECT u.password_hash IS NOT NULL AS has_password, s.provider_id
         FROM memberships m JOIN users u ON u.id = m.user_id
         LEFT JOIN sso_domains s ON s.tenant_id = m.tenant_id AND s.enabled
                                AND s.domain = substring(u.email from '@([^@]*)$')
        WHERE m.tenant_id = $1::uuid AND m.role = 'admin'
     )
     SELECT coalesce(bool_or(has_password OR provider_id IS NOT NULL), false) AS now,
            coalesce(bool_or(has_password OR (provider_id IS NOT NULL AND provider_id <> $2::uuid)), false) AS after
       FROM admins`,
    [tenantId, providerId],
  );
  return !row?.now || row.after;
}
