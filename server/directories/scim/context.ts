/** What every SCIM handler works with: the directory its token opened, who acts, where it answers from. */
import type { Database } from "../../db/client.ts";
import type { Directory as DirectoryRow } from "../../db/generated/client.ts";
import type { EventActor } from "../../events/emit.ts";
import type { ScimRequest } from "./respond.ts";
import type { Refusal } from "../lifecycle.ts";

export interface ScimContext {
  db: Database;
  directory: DirectoryRow;
  /** `directory:<id>`, from the request's address (directoryActor). */
  actor: EventActor;
  /** `{origin}/api/scim/v2/{directory_id}`. */
  base: string;
  request: ScimRequest;
  /** Changes the last-admin rule refused during the request: its log line says so. */
  refusals: Refusal[];
}

/**
 * The transaction options of every SCIM write. An IdP's initial sync writes many users of one
 * tenant at once, and each write's events queue on the tenant's audit chain head (held until
 * COMMIT); a group write may add thousands of members with their events. Prisma's default 5 s
 * would turn that queue into 500s on a busy database: wait up to 10 s to start, 30 s to finish.
 */
export const SCIM_WRITE = { maxWait: 10_000, timeout: 30_000 };
