/**
 * The per-address limit where a request enters (http-server.ts, and the test server the same),
 * for the routes Next serves that answer callers without an API token: the console's procedures
 * (/api/trpc) and export, next-auth's sign-in (/api/auth/*), SSO and the OAuth broker (/api/sso/*). Each
 * such request counts once against its client address, however many run in parallel (policy
 * `per-ip-console`, RATE_LIMIT_PER_IP_CONSOLE) in the shared Postgres windows of
 * server/auth/rate-limit.ts, before Next or any handler runs: past the quota the answer is a 429
 * that cost one counter (often none, from this instance's lease), not a password hash, a token
 * lookup or a page of rows.
 *
 * Signed-in console requests count too: telling them apart would mean reading the session (its
 * JWE and its user's row), the very work the limit keeps from running, and a signed-in attacker is
 * still one address. The default is far above what a person's console sends (tRPC batches a
 * page's calls into one request).
 */
import type { IncomingMessage } from "node:http";
import { randomUUID } from "node:crypto";
import { database } from "../db/client.ts";
import { clientIp } from "../contract/request.ts";
import { errorResponse, problemResponse } from "../contract/problem.ts";
import { consolePolicy, hitAddress, limitedDetail, rateLimitHeaders } from "../auth/rate-limit.ts";
import type { Route } from "./routes.ts";

export interface EntryLimit {
  /** The 429 (or the problem when the count could not be taken); null: serve the request. */
  refused: Response | null;
  /** RateLimit-Policy and RateLimit, for the answer whoever gives it. */
  headers: Record<string, string>;
}

const NONE: EntryLimit = { refused: null, headers: {} };

/** Counts the request when `route` is limited per address at entry (its row says `perIp`). */
export async function limitAtEntry(route: Route | undefined, req: IncomingMessage): Promise<EntryLimit> {
  const policy = route?.perIp ? consolePolicy() : null;
  if (!policy) return NONE;
  const origin = `http://${req.headers.host ?? "localhost"}`;
  try {
    const ip = clientIp((name) => req.headers[name]?.toString() ?? null);
    const usage = await hitAddress((await database()).sql, ip, policy);
    if (!usage) return NONE;
    const headers = rateLimitHeaders(usage);
    if (!usage.limited) return { refused: null, headers };
    const refused = problemResponse({ code: "rate_limited", detail: limitedDetail(usage) }, randomUUID(), origin);
    for (const [name, value] of Object.entries(headers)) refused.headers.set(name, value);
    return { refused, headers };
  } catch (error) {
    const fields = { method: req.method, path: req.url?.split("?")[0] };
    return { refused: errorResponse(error, { requestId: randomUUID(), origin, log: "entry rate limit failed", fields }), headers: {} };
  }
}
