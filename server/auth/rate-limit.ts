/**
 * API rate limits: a fixed window per API token (audit ingestion, the appends, has a quota of
 * its own, counted apart from the token's other calls), and per client address for requests
 * without a valid token. The count is a row in Postgres moved by one upsert, so all instances
 * share it and a restart does not reset it; the window is timed by the database's clock, so
 * instances with skewed clocks agree too. A window starts at its partition's first request.
 * Answers carry RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-11).
 *
 * Leases: a busy partition would rewrite one Postgres row per request (a new row version each
 * time, which costs more than the request's own query), so an instance claims `lease` requests
 * of the quota at once and serves them from memory. Claims come out of the shared count, so
 * instances together never exceed the quota; a stopped instance's unused claim stays spent (a
 * restart never hands out more). Quotas under 100 are counted one request at a time, exactly.
 *
 * Parallel requests count once each: on an instance, one claim per partition is in flight at a
 * time, and the requests that find the lease empty meanwhile wait for it and are served from
 * what it claimed (`leaseOrClaim`). Each claiming for itself, 16 parallel streams of 4 requests
 * claimed 16 leases at once and each replaced the one before: 385 of the quota for 64 requests.
 */
import type { SqlRunner } from "../db/sql.ts";
import { env } from "../env.ts";

export interface Policy {
  name: "per-token" | "per-token-ingest" | "per-ip" | "per-ip-console" | "per-directory";
  /** What its windows' keys start with, before the token id or the address: each policy counts apart. */
  partition: "token" | "token-ingest" | "ip" | "console-ip" | "directory";
  quota: number;
  windowSeconds: number;
  /** Requests an instance claims per upsert: 1 (exact) up to 50, at most 2% of the quota. */
  lease: number;
}

export interface Usage {
  policy: Policy;
  remaining: number;
  /** Seconds until the window ends and the quota is whole again. */
  resetSeconds: number;
  limited: boolean;
}

/** What the counting upsert answered: the partition's claimed count, and ms until the window ends. */
export interface Hit {
  hits: number;
  resetMs: number;
}

/**
 * The counting upsert, for each row of `source` (a relation with a `key` column): claims
 * `$lease` requests. The count is capped at quota + lease, so refused requests keep the window's
 * end (and Retry-After) where it is. Also run inside the bearer lookup (server/auth/tokens.ts),
 * saving a round trip.
 */
export function countRequestSql(source: string, p: { window: string; quota: string; lease: string }): string {
  return `INSERT INTO rate_limit_windows AS w (key, hits, window_end)
     SELECT key, ${p.lease}, now() + make_interval(secs => ${p.window}) FROM ${source}
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN w.window_end <= now() THEN EXCLUDED.hits ELSE least(w.hits, ${p.quota}) + EXCLUDED.hits END,
       window_end = CASE WHEN w.window_end <= now() THEN EXCLUDED.window_end ELSE w.window_end END
     RETURNING hits, greatest(1, ceil(extract(epoch FROM window_end - now()) * 1000))::int AS "resetMs"`;
}

function policy(name: Policy["name"], partition: Policy["partition"], quota: number): Policy | null {
  if (quota === 0) return null;
  const lease = Math.max(1, Math.min(50, Math.floor(quota / 50)));
  return { name, partition, quota, windowSeconds: env().RATE_LIMIT_WINDOW_SECONDS, lease };
}

export const tokenPolicy = () => policy("per-token", "token", env().RATE_LIMIT_PER_TOKEN);
/** Audit appends: an application may record every event as it happens, so its own, larger quota. */
export const ingestPolicy = () => policy("per-token-ingest", "token-ingest", env().RATE_LIMIT_PER_TOKEN_INGEST);
export const addressPolicy = () => policy("per-ip", "ip", env().RATE_LIMIT_PER_IP);
/** Every request to the console's, sign-in's and SSO's routes, per address, where it enters (server/ops/entry-limit.ts). */
export const consolePolicy = () => policy("per-ip-console", "console-ip", env().RATE_LIMIT_PER_IP_CONSOLE);
/** SCIM requests per directory (its IdP's token), server/directories/scim/endpoint.ts; counted with `hitAddress(sql, directoryId, directoryPolicy())`. */
export const directoryPolicy = () => policy("per-directory", "directory", env().RATE_LIMIT_PER_DIRECTORY);

interface Lease {
  /** Requests claimed and not yet served. */
  left: number;
  /** The partition's claimed count when this lease was taken. */
  hits: number;
  endsAt: number;
}

const leases = new Map<string, Lease>();
const MAX_LEASES = 10_000;

/** Per partition, the claim in flight on this instance: what it counted once done (null: nothing, or it failed). */
const claiming = new Map<string, Promise<Usage | null>>();

/** One request served from this instance's lease on `key`, or null when it holds none. */
function takeLeased(policy: Policy, key: string): Usage | null {
  const lease = leases.get(key);
  const now = Date.now();
  if (!lease || lease.left <= 0 || lease.endsAt <= now) return null;
  lease.left -= 1;
  return {
    policy,
    remaining: Math.max(0, policy.quota - lease.hits) + lease.left,
    resetSeconds: Math.max(1, Math.ceil((lease.endsAt - now) / 1000)),
    limited: false,
  };
}

/**
 * The usage after a claim: what the claim granted (from 0 to `lease`) serves this request and later
 * ones. A lease this instance still holds on `key` in the same window keeps its requests (added
 * to, never replaced: each request of it was counted already).
 */
function granted(policy: Policy, key: string, { hits, resetMs }: Hit): Usage {
  const grant = Math.max(0, Math.min(policy.lease, policy.quota - (hits - policy.lease)));
  const now = Date.now();
  const held = leases.get(key);
  // A claim that opened a new window (the count is its own claim alone) drops what is left of the last.
  const carried = held && held.endsAt > now && hits > policy.lease ? Math.max(0, held.left) : 0;
  // This request, and the lease's.
  const available = carried + grant;
  const left = Math.max(0, available - 1);
  if (left > 0) {
    if (leases.size >= MAX_LEASES) for (const [k, l] of leases) if (l.endsAt <= now || l.left <= 0) leases.delete(k);
    if (leases.size < MAX_LEASES || held) leases.set(key, { left, hits, endsAt: now + resetMs });
  }
  return {
    policy,
    remaining: Math.max(0, policy.quota - hits) + left,
    resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    limited: available === 0,
  };
}

/** What a claim answered: `result` for the caller, `hit` the count it took (none: it counted nothing). */
export interface Claimed<T> {
  result: T;
  hit?: Hit;
}

/**
 * Counts one request against `key`: from this instance's lease, else by `claim` (the counting
 * upsert, claiming `policy.lease` requests). While a claim of `key` is in flight here, requests
 * that find no lease wait for it and are served from its lease (or refused with it, when it found
 * the quota spent); so parallel requests claim once per lease, never once each. `claimed`: the
 * claim's result, when this request made it (a request served from the lease made none).
 */
export async function leaseOrClaim<T>(
  policy: Policy,
  key: string,
  claim: () => Promise<Claimed<T>>,
): Promise<{ usage: Usage | null; claimed?: Claimed<T> }> {
  if (policy.lease > 1) {
    for (;;) {
      const leased = takeLeased(policy, key);
      if (leased) return { usage: leased };
      const inFlight = claiming.get(key);
      if (!inFlight) break;
      const counted = await inFlight;
      if (counted?.limited) return { usage: { ...counted } };
    }
  }
  let done!: (usage: Usage | null) => void;
  if (policy.lease > 1) claiming.set(key, new Promise((resolve) => (done = resolve)));
  let usage: Usage | null = null;
  try {
    const claimed = await claim();
    usage = claimed.hit ? granted(policy, key, claimed.hit) : null;
    return { usage, claimed };
  } finally {
    if (policy.lease > 1) {
      claiming.delete(key);
      done(usage);
    }
  }
}

/** Counts one request against its address: by default a REST call without a valid token. */
export async function hitAddress(sql: SqlRunner, ip: string | null, p = addressPolicy()): Promise<Usage | null> {
  if (!p) return null;
  const key = `${p.partition}:${ip ?? "unknown"}`;
  const { usage } = await leaseOrClaim(p, key, async () => {
    const [row] = await sql.query<Hit>(countRequestSql("(VALUES ($1::text)) AS s(key)", { window: "$2", quota: "$3", lease: "$4" }), [
      key,
      p.windowSeconds,
      p.quota,
      p.lease,
    ]);
    return { result: row!, hit: row! };
  });
  return usage;
}

/** The 429's detail: which limit, and when to come back. */
export function limitedDetail({ policy, resetSeconds }: Usage): string {
  return `Rate limit "${policy.name}" exceeded: ${policy.quota} requests per ${policy.windowSeconds} s; retry after ${resetSeconds} s`;
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
