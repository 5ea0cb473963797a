/**
 * Who a tenant owns: the people whose email is in one of its verified domains (proved by DNS, or
 * vouched for by an operator; a verified domain belongs to one tenant platform-wide). Only those may
 * a directory, an SSO provider's first sign-in or auto-join create, link, change or remove
 * (issue 38). A domain pending verification, even one that routes sign-ins while pending, owns no one.
 */
import type { Tx } from "../db/client.ts";
import type { SqlStatements } from "../db/sql.ts";
import type { EventActor } from "../events/emit.ts";

/** The domain of an email address, lowercase; null when it has none. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf("@");
  const domain =
    at > 0
      ? email
          .slice(at + 1)
          .trim()
          .toLowerCase()
      : "";
  return domain && !domain.includes("@") ? domain : null;
}

/** The tenant's verified domains. */
export async function verifiedDomainsOf(sql: SqlStatements, tenantId: string): Promise<Set<string>> {
  const rows = await sql.query<{ domain: string }>(`SELECT domain FROM domains WHERE tenant_id = $1::uuid AND state = 'verified'`, [
    tenantId,
  ]);
  return new Set(rows.map((r) => r.domain));
}

/** Whether the tenant owns this email: its domain is one of the tenant's verified domains. */
export async function ownsEmail(sql: SqlStatements, tenantId: string, email: string): Promise<boolean> {
  const domain = domainOf(email);
  if (!domain) return false;
  const rows = await sql.query(`SELECT 1 FROM domains WHERE tenant_id = $1::uuid AND domain = $2 AND state = 'verified'`, [
    tenantId,
    domain,
  ]);
  return rows.length > 0;
}

/**
 * What must happen in the transaction in which the tenant starts or stops owning a domain's people
 * (the domain became verified, or stopped being verified: failed, or deleted), once that is
 * written: Directory Sync links or unlinks the people its directories hold there. Those who react
 * sit above domains, so the app wires them at start-up (server/app/features.ts), as it wires the
 * event subscribers.
 */
export type OwnershipChange = (tx: Tx, tenantId: string, domain: string, cause: EventActor) => Promise<void>;

// On globalThis: Next's bundles each load this module (as the event subscribers are kept).
const wired = globalThis as unknown as { __controlPlaneOwnershipChanges?: readonly OwnershipChange[] };

/** Sets what every ownership change runs, in order. The start-up wiring does (server/app/features.ts). */
export function setOwnershipChanges(reactions: readonly OwnershipChange[]): void {
  wired.__controlPlaneOwnershipChanges = [...reactions];
}

/** The tenant's ownership of `domain` just changed, in `tx`: runs what the app wired. */
export async function ownershipChanged(tx: Tx, tenantId: string, domain: string, cause: EventActor): Promise<void> {
  const reactions = wired.__controlPlaneOwnershipChanges;
  // Changing ownership unwired would leave the directories' people as they were: refuse instead.
  if (!reactions)
    throw new Error("domain ownership changes are not wired: call wireEventSubscribers() (server/app/features.ts) at start-up");
  for (const react of reactions) await react(tx, tenantId, domain, cause);
}
