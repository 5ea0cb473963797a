/**
 * A domain of the tenant became verified, or stopped being verified (failed, deleted): the people
 * its directories hold with that domain are reconciled at once, in the same transaction, so they
 * are linked (and given what their directory says) the moment the tenant owns them, and unlinked
 * the moment it no longer does (their memberships stay: see server/directories/lifecycle.ts).
 * Each directory acts as itself, as in SCIM. Domains call it through the ownership change the app
 * wires (server/domains/ownership.ts, server/app/features.ts).
 */
import { sqlIn, type Tx } from "../db/client.ts";
import type { EventActor } from "../events/emit.ts";
import { directoryActor } from "./actor.ts";
import { reconcileDirectoryUsers } from "./lifecycle.ts";

export async function reconcileDomainPeople(tx: Tx, tenantId: string, domain: string, cause: EventActor): Promise<void> {
  const rows = await sqlIn(tx).query<{ id: string; directory_id: string }>(
    `SELECT id::text AS id, directory_id::text AS directory_id FROM directory_users
      WHERE tenant_id = $1::uuid AND substring(primary_email from '@([^@]*)$') = $2`,
    [tenantId, domain],
  );
  const byDirectory = new Map<string, string[]>();
  for (const row of rows) byDirectory.set(row.directory_id, [...(byDirectory.get(row.directory_id) ?? []), row.id]);
  const request = { requestId: "domain", ip: cause.ip, userAgent: cause.userAgent };
  for (const [directoryId, userIds] of byDirectory) {
    const directory = await tx.directory.findUniqueOrThrow({ where: { id: directoryId } });
    await reconcileDirectoryUsers(tx, directory, userIds, directoryActor(directory, request));
  }
}
