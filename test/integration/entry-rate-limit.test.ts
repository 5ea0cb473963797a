/**
 * The routes Next serves to callers without an API token (the console's procedures, next-auth's
 * sign-in, SSO and the OAuth broker) are limited per client address where the request enters:
 * past RATE_LIMIT_PER_IP_CONSOLE the answer is a 429 and Next never runs, so one address cannot
 * buy the server's CPU by the request (40 bogus sign-ins took a normal one from 0.23 s to 3.8 s).
 * The count is the shared Postgres window of the REST edge's limits. Issue 21, finding 8. Each
 * request counts once, however many a client sends in parallel (issue 38).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { AddressInfo } from "node:net";
import { createAppServer, type AppServer } from "../../server/ops/http-server.ts";
import { apiServer } from "../support/api-server.ts";
import { database } from "../../server/db/client.ts";
import { startInstance } from "../support/instances.ts";
import { parallelStreams, servedUntilRefused } from "../support/parallel-streams.ts";

// Read once, when the app first reads its environment (after this file loads). Behind a trusted
// proxy, so each test's requests come from addresses of its own.
process.env.TRUST_PROXY = "true";
process.env.RATE_LIMIT_PER_IP_CONSOLE = "5";
process.env.RATE_LIMIT_WINDOW_SECONDS = "3600";
const QUOTA = 5;

const api = apiServer();

/** The production server, with a stand-in for Next that counts the requests it is handed. */
let app: AppServer;
let appUrl: string;
const reachedNext: string[] = [];
beforeAll(async () => {
  app = createAppServer((req, res) => {
    reachedNext.push(`${req.headers["x-forwarded-for"]} ${req.url}`);
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.drain(0);
});

const from = (ip: string) => ({ "x-forwarded-for": ip });
const tokenRequest = (base: string, ip: string) =>
  fetch(`${base}/api/sso/token`, {
    method: "POST",
    headers: { ...from(ip), "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=authorization_code&client_id=nobody&client_secret=guess&code=x&redirect_uri=https%3A%2F%2Fapp.example&code_verifier=v",
  });
const trpcRequest = (base: string, ip: string) => fetch(`${base}/api/trpc/account.me`, { headers: from(ip) });

async function expectRefused(response: Response) {
  expect(response.status).toBe(429);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(await response.json()).toMatchObject({ status: 429, code: "rate_limited" });
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(3500);
  expect(response.headers.get("ratelimit-policy")).toBe(`"per-ip-console";q=${QUOTA};w=3600`);
  expect(response.headers.get("ratelimit")).toBe(`"per-ip-console";r=0;t=${retryAfter}`);
}

test("the production server refuses an address past its quota before Next sees the request; others go on", async () => {
  const ip = "198.51.100.21";
  for (let i = 0; i < QUOTA; i++) {
    const served = await tokenRequest(appUrl, ip);
    expect(served.status).toBe(200);
    expect(served.headers.get("ratelimit")).toMatch(new RegExp(`^"per-ip-console";r=${QUOTA - 1 - i};t=\\d+$`));
  }
  expect(reachedNext).toHaveLength(QUOTA);
  await expectRefused(await tokenRequest(appUrl, ip));
  // One count for every route of the kind: the console's procedures and sign-in are refused too.
  await expectRefused(await trpcRequest(appUrl, ip));
  await expectRefused(await fetch(`${appUrl}/api/auth/callback/credentials`, { method: "POST", headers: from(ip) }));
  await expectRefused(await fetch(`${appUrl}/api/console/tenants/t/audit/export`, { headers: from(ip) }));
  expect(reachedNext).toHaveLength(QUOTA);

  // Another address is another client.
  expect((await tokenRequest(appUrl, "198.51.100.22")).status).toBe(200);
  expect(reachedNext.at(-1)).toBe("198.51.100.22 /api/sso/token");
  // Pages and the probes are not counted here.
  expect((await fetch(`${appUrl}/login`, { headers: from(ip) })).status).toBe(200);
  expect((await fetch(`${appUrl}/api/health/live`, { headers: from(ip) })).status).toBe(200);
});

test("the broker's token endpoint: the request past the quota is 429, not the handler's invalid_client", async () => {
  const ip = "198.51.100.31";
  for (let i = 0; i < QUOTA; i++) {
    const answered = await tokenRequest(api.url, ip);
    expect(answered.status).toBe(401);
    expect((await answered.json()).error).toBe("invalid_client");
  }
  await expectRefused(await tokenRequest(api.url, ip));
  expect((await tokenRequest(api.url, "198.51.100.32")).status).toBe(401);
});

test("the console's procedures: the request past the quota is 429, not the procedure's answer", async () => {
  const ip = "198.51.100.41";
  for (let i = 0; i < QUOTA; i++) expect((await trpcRequest(api.url, ip)).status).toBe(401);
  await expectRefused(await trpcRequest(api.url, ip));
  expect((await trpcRequest(api.url, "198.51.100.42")).status).toBe(401);
  const [row] = await (
    await database()
  ).sql.query<{ hits: number }>(`SELECT hits FROM rate_limit_windows WHERE key = $1`, [`console-ip:${ip}`]);
  expect(row!.hits).toBeGreaterThan(QUOTA);
});

test(
  "parallel requests count once each: 16 streams of 4 use 64 of the quota, and the whole quota is served, not one more",
  { timeout: 60_000 },
  async () => {
    // A quota claimed in leases (4 requests per upsert), served by the production server in its
    // own process. Parallel requests that found no lease each claimed one, and each claim replaced
    // the last one's lease: 16 × 4 requests used 385 of 1200.
    const quota = 200;
    const app = await startInstance({ RATE_LIMIT_PER_IP_CONSOLE: String(quota) }, "test/support/app-instance.ts");
    try {
      const ip = "198.51.100.51";
      let last: Response | undefined;
      const call = async () => {
        last = await fetch(`${app.url}/api/sso/profile`, { headers: from(ip) });
        await last.arrayBuffer();
        return last.status;
      };
      const statuses = (await parallelStreams(16, 4, call)).flat();
      expect(statuses.filter((status) => status !== 401)).toEqual([]);
      const [row] = await (
        await database()
      ).sql.query<{ hits: number }>(`SELECT hits FROM rate_limit_windows WHERE key = $1`, [`console-ip:${ip}`]);
      // Claimed 4 at a time: what was served, and at most the rest of one lease.
      expect(row!.hits).toBeGreaterThanOrEqual(64);
      expect(row!.hits).toBeLessThan(64 + 4);
      await call();
      expect(last!.headers.get("ratelimit")).toMatch(new RegExp(`^"per-ip-console";r=${quota - 65};t=\\d+$`));
      // The rest of the quota, in parallel again: every request of it served, then refused.
      expect(65 + (await servedUntilRefused(16, call))).toBe(quota);
    } finally {
      await app.stop();
    }
  },
);
