/** The OAuth broker's token endpoint (server/sso/broker/token.ts): code + PKCE → access token and profile. */
import { database } from "@/server/db/client";
import { tokenEndpoint } from "@/server/sso/broker/token";

export const dynamic = "force-dynamic";

export async function POST(req: Request) {
  return tokenEndpoint(await database(), req);
}
