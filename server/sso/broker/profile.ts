/** GET /api/sso/profile: the profile an application's access token was issued with (RFC 6750 bearer). */
import type { Database } from "../../db/client.ts";
import { profileOfAccessToken } from "./grants.ts";
import { invalidToken, jsonNoStore } from "./oauth.ts";

export async function profileEndpoint(db: Database, req: Request): Promise<Response> {
  const header = req.headers.get("authorization");
  if (!header) return invalidToken(null);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const profile = match ? await profileOfAccessToken(db, match[1]!) : null;
  if (!profile) return invalidToken("the access token is unknown or expired");
  return jsonNoStore(profile);
}
