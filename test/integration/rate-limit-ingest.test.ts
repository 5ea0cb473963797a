/**
 * Audit ingestion has a per-token quota of its own (RATE_LIMIT_PER_TOKEN_INGEST), counted apart
 * from the token's general one (RATE_LIMIT_PER_TOKEN): an application appending events one by one
 * uses up neither the other's calls, nor they its appends.
 */
import { beforeEach, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";

// Read once, when the app first reads its environment (after this file loads).
process.env.RATE_LIMIT_PER_TOKEN = "3";
process.env.RATE_LIMIT_PER_TOKEN_INGEST = "4";
process.env.RATE_LIMIT_WINDOW_SECONDS = "3600";

const api = apiServer();

beforeEach(async () => {
  await (await database()).sql.query(`DELETE FROM rate_limit_windows`);
});

async function setup() {
  const world = await tenantWithMembers();
  return { base: `/api/v1/tenants/${world.tenant.id}/audit`, admin: client(api.url, world.admin.token) };
}

const event = (n: number) => ({ event_type: "invoice.paid", actor: { id: `app-user-${n}` } });

test("appends use up only the ingest quota: the next append is 429, a GET of the same token still works", async () => {
  const { base, admin } = await setup();
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await admin.post(base, event(i))).status);
  const batch = await admin.post(`${base}/batch`, { events: [event(3), event(4)] });
  statuses.push(batch.status);
  expect(statuses).toEqual([201, 201, 201, 201]);
  expect(batch.headers.get("ratelimit-policy")).toBe('"per-token-ingest";q=4;w=3600');

  const refused = await admin.post(base, event(5));
  expect(refused.status).toBe(429);
  expect(refused.json.code).toBe("rate_limited");
  expect(refused.headers.get("ratelimit")).toMatch(/^"per-token-ingest";r=0;t=\d+$/);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
  expect((await admin.post(`${base}/batch`, { events: [event(6)] })).status).toBe(429);

  const listed = await admin.get(base);
  expect(listed.status).toBe(200);
  expect(listed.json.count).toBe(5);
  expect(listed.headers.get("ratelimit")).toMatch(/^"per-token";r=2;t=\d+$/);
});

test("other calls use up only the general quota: the next GET is 429, appends still work", async () => {
  const { base, admin } = await setup();
  for (let i = 0; i < 3; i++) expect((await admin.get(base)).status).toBe(200);
  const refused = await admin.get(`${base}/verify`);
  expect(refused.status).toBe(429);
  expect(refused.headers.get("ratelimit-policy")).toBe('"per-token";q=3;w=3600');
  // The export and other writes are general calls too.
  expect((await admin.get(`${base}/export`)).status).toBe(429);

  const appended = await admin.post(base, event(1));
  expect(appended.status).toBe(201);
  expect(appended.headers.get("ratelimit")).toMatch(/^"per-token-ingest";r=3;t=\d+$/);
  expect((await admin.post(`${base}/batch`, { events: [event(2)] })).status).toBe(201);
});
