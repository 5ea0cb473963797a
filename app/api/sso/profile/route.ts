/** The OAuth broker's profile endpoint (server/sso/broker/profile.ts): Bearer access token → profile. */
import { database } from "@/server/db/client";
import { profileEndpoint } from "@/server/sso/broker/profile";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  return profileEndpoint(await database(), req);
}
