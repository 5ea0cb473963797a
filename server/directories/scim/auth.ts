/**
 * A SCIM request's credential: the bearer token's hash names one directory, which must be the one
 * in the path and enabled. Every refusal is the same 401 (with `WWW-Authenticate: Bearer`), so a
 * caller learns nothing about other directories. The token opens nothing else: no principal is
 * made of it, and /api/v1 looks tokens up in api_tokens only.
 */
import type { Database } from "../../db/client.ts";
import type { Directory as DirectoryRow } from "../../db/generated/client.ts";
import { isUuid } from "../../db/ids.ts";
import { hashDirectoryToken } from "../token.ts";
import { DIRECTORY_TOKEN_PREFIX } from "../schemas.ts";
import { ScimError } from "./errors.ts";

export class ScimUnauthorized extends ScimError {
  /** The directory the token is for, when it is the path's but disabled: its admin sees the refusals in the sync activity. */
  constructor(
    detail: string,
    readonly disabledDirectory: DirectoryRow | null = null,
  ) {
    super(401, null, detail);
  }
}

export async function authenticateDirectory(db: Database, directoryId: string, bearer: string | null): Promise<DirectoryRow> {
  if (!bearer) throw new ScimUnauthorized("Send the directory's token as Authorization: Bearer <token>");
  const refused = new ScimUnauthorized("The token is not valid for this directory");
  if (!bearer.startsWith(DIRECTORY_TOKEN_PREFIX) || !isUuid(directoryId)) throw refused;
  // Raw SQL on the hot path (every SCIM request), as the API tokens' lookup is.
  const [directory] = await db.sql.query<DirectoryRow>(
    `SELECT id::text, tenant_id::text AS "tenantId", name, provider, enabled, token_hash AS "tokenHash", token_hint AS "tokenHint",
            default_role AS "defaultRole", role_mappings AS "roleMappings",
            governs_existing_members AS "governsExistingMembers", last_request_at AS "lastRequestAt",
            created_at AS "createdAt", updated_at AS "updatedAt"
       FROM directories WHERE token_hash = $1`,
    [hashDirectoryToken(bearer)],
  );
  if (!directory || directory.id !== directoryId.toLowerCase()) throw refused;
  if (!directory.enabled) throw new ScimUnauthorized(refused.detail, directory);
  return directory;
}
