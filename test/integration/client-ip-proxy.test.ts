/**
 * Behind a trusted proxy (TRUST_PROXY=true) the client address is the X-Forwarded-For entry the
 * proxy appended, never an entry the client wrote before it. Issue 21, finding 1.
 */
import { expect, test } from "vitest";
import { client } from "../support/fixtures.ts";
import { mailServers } from "../support/mail-servers.ts";

process.env.TRUST_PROXY = "true";
const servers = mailServers();

test("the last X-Forwarded-For entry keys the per-IP limit, whatever the client wrote before it", async () => {
  const c = client(servers.api.url);
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) {
    // The client claims a new address each time; the proxy appends the one it saw.
    const res = await c.post(
      "/api/v1/auth/password-reset",
      { email: `proxied-${i}@example.com` },
      { "x-forwarded-for": `198.51.100.${i}, 192.0.2.10` },
    );
    statuses.push(res.status);
  }
  expect(statuses.at(-1)).toBe(429);
  // Another address the proxy saw is another client.
  const other = await c.post(
    "/api/v1/auth/password-reset",
    { email: "proxied-other@example.com" },
    { "x-forwarded-for": "198.51.100.1, 192.0.2.11" },
  );
  expect(other.status).toBe(202);
});
