/**
 * The client address is the socket's unless TRUST_PROXY=true: an X-Forwarded-For the client wrote
 * itself is dropped where the request enters, for everything the server answers (the REST edge,
 * and what Next serves: next-auth, the console's procedures, SSO). Before, rotating the header
 * made 35 wrong requests from one socket evade a limit of 30 per IP, and a chosen address went
 * into the audit log. Issue 21, finding 1 (the proxy case: client-ip-proxy.test.ts).
 */
import { expect, test } from "vitest";
import type { AddressInfo } from "node:net";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { createAppServer } from "../../server/ops/http-server.ts";
import { mailServers } from "../support/mail-servers.ts";

const servers = mailServers();

test("rotating X-Forwarded-For does not evade the per-IP limit of password reset requests (30 in 15 min)", async () => {
  const c = client(servers.api.url);
  const answers: number[] = [];
  for (let i = 0; i < 35; i++) {
    const res = await c.post(
      "/api/v1/auth/password-reset",
      { email: `rotating-${i}@example.com` },
      { "x-forwarded-for": `203.0.113.${i}` },
    );
    answers.push(res.status);
  }
  expect(answers.slice(0, 30).every((status) => status === 202)).toBe(true);
  expect(answers.slice(30)).toEqual([429, 429, 429, 429, 429]);
});

const FORGED = { "x-forwarded-for": "203.0.113.99", "x-real-ip": "203.0.113.98" };

test("a forged X-Forwarded-For or X-Real-IP never reaches the audit log", async () => {
  const { tenant, admin } = await tenantWithMembers();
  const res = await client(servers.api.url, admin.token).post("/api/v1/tokens", { name: "ci", tenant_id: tenant.id }, FORGED);
  expect(res.status).toBe(201);
  const [event] = await (await db()).auditEvent.findMany({ where: { eventType: "api_token.created", targetId: res.json.id } });
  expect(event!.ipAddress).toBe("127.0.0.1");
});

test("the production server settles the address before Next sees the request", async () => {
  // The fallback stands where Next is: it answers what it was given.
  const app = createAppServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ forwarded: req.headers["x-forwarded-for"] ?? null, realIp: req.headers["x-real-ip"] ?? null }));
  });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/auth/callback/credentials`, {
      method: "POST",
      headers: FORGED,
    });
    expect(await res.json()).toEqual({ forwarded: "127.0.0.1", realIp: null });
  } finally {
    await app.drain(0);
  }
});
