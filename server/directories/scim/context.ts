/** What every SCIM handler works with: the directory its token opened, who acts, where it answers from. */
import type { Database } from "../../db/client.ts";
import type { Directory as DirectoryRow } from "../../db/generated/client.ts";
import type { EventActor } from "../../events/emit.ts";
import type { ScimRequest } from "./respond.ts";

export interface ScimContext {
  db: Database;
  directory: DirectoryRow;
  /** `directory:<id>`, from the request's address (directoryActor). */
  actor: EventActor;
  /** `{origin}/api/scim/v2/{directory_id}`. */
  base: string;
  request: ScimRequest;
}
