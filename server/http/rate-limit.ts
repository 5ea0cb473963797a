/**
 * API rate limits (DESIGN §3): a fixed window per API token, and per client address for requests
 * without a valid token. The counter is a row in Postgres moved by one upsert per request, so all
 * instances share it and a restart changes nothing; the window is timed by the database's clock,
 * so instances with skewed clocks agree too. A window starts at its partition's first request.
 * Answers carry RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-11).
 */
import type { SqlRunner } from "../db/sql.ts";
import { env } from "../env.ts";
import type { Principal } from "../auth/principal.ts";

export interface Policy {
  name: "per-token" | "per-ip";
  quota: number;
  windowSeconds: number;
}

export interface Usage {
  policy: Policy;
  remaining: number;
  /** Seconds until the window ends and the quota is whole again. */
  resetSeconds: number;
  limited: boolean;
}

/** Who a request is counted against. */
export interface Caller {
  principal: Principal | null;
  ip: string | null;
}

/** The policy and partition key of a caller, or null when that limit is off (0). */
export function partitionOf(caller: Caller): { policy: Policy; key: string } | null {
  const e = env();
  const token = caller.principal?.token;
  const quota = token ? e.RATE_LIMIT_PER_TOKEN : e.RATE_LIMIT_PER_IP;
  if (quota === 0) return null;
  const policy: Policy = { name: token ? "per-token" : "per-ip", quota, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS };
  return { policy, key: token ? `token:${token.id}` : `ip:${caller.ip ?? "unknown"}` };
}

/**
 * Counts one request. Requests past the quota still count (capped), so the window's end, and
 * with it Retry-After, stays put while a client keeps knocking.
 */
export async function hit(sql: SqlRunner, caller: Caller): Promise<Usage | null> {
  const partition = partitionOf(caller);
  if (!partition) return null;
  const { policy, key } = partition;
  const [row] = await sql.query<{ hits: number; reset: number }>(
    `INSERT INTO rate_limit_windows AS w (key, hits, window_end)
     VALUES ($1, 1, now() + make_interval(secs => $2))
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN w.window_end <= now() THEN 1 ELSE least(w.hits, $3) + 1 END,
       window_end = CASE WHEN w.window_end <= now() THEN EXCLUDED.window_end ELSE w.window_end END
     RETURNING hits, greatest(1, ceil(extract(epoch FROM window_end - now())))::int AS reset`,
    [key, policy.windowSeconds, policy.quota],
  );
  const { hits, reset } = row!;
  return { policy, remaining: Math.max(0, policy.quota - hits), resetSeconds: reset, limited: hits > policy.quota };
}

/** RateLimit-Policy and RateLimit as structured fields, plus Retry-After when limited. */
export function rateLimitHeaders(usage: Usage): Record<string, string> {
  const { policy } = usage;
  const headers: Record<string, string> = {
    "RateLimit-Policy": `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${usage.remaining};t=${usage.resetSeconds}`,
  };
  if (usage.limited) headers["Retry-After"] = String(usage.resetSeconds);
  return headers;
}

/** Housekeeping: windows that have ended hold nothing a later request would read. */
export async function purgeEndedWindows(sql: SqlRunner): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `WITH ended AS (DELETE FROM rate_limit_windows WHERE window_end <= now() RETURNING 1) SELECT count(*)::int AS n FROM ended`,
  );
  return row!.n;
}
