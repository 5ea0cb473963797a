/**
 * What a directory's people mean for the tenant: console memberships from role mappings, and
 * deprovisioning. Called in the transaction of every change that can alter them (a user written
 * or deactivated, a group's members or name changed, the mappings edited, the directory deleted).
 *
 * SEAM: not built yet (issue 23 items 4 and 5); the SCIM endpoint and the directories API already
 * call it where it belongs.
 */
import type { Directory as DirectoryRow } from "../db/generated/client.ts";
import type { Tx } from "../db/client.ts";
import type { EventActor } from "../events/emit.ts";

/**
 * Recomputes each given directory user's role and console membership, and deprovisions those
 * inactive (or in `deleting`, about to be removed): membership ended, tokens revoked, sessions
 * and broker tokens ended. Unknown ids are ignored.
 */
export async function reconcileDirectoryUsers(
  _tx: Tx,
  _directory: DirectoryRow,
  _userIds: readonly string[],
  _actor: EventActor,
  _options: { deleting?: boolean } = {},
): Promise<void> {}
