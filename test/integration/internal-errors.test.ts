import { expect, test, vi } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, operator } from "../support/fixtures.ts";

const api = apiServer();

test("an unexpected failure is a generic 500 with the request id, logged server-side, with no internals", async () => {
  const { token } = await operator();
  // Break this file's own database for real: the query fails inside Postgres.
  await (await db()).$executeRawUnsafe(`ALTER TABLE tenants RENAME COLUMN name TO name_gone`);
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  process.env.LOG_LEVEL = "error";
  try {
    const res = await client(api.url, token).get("/api/v1/tenants", { "x-request-id": "req-500" });
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ code: "internal", status: 500, request_id: "req-500" });
    expect(res.text).not.toMatch(/name_gone|column|tenants|prisma|at \w+ \(/i);
    const lines = logged.mock.calls.map((call) => String(call[0]));
    expect(lines.some((line) => line.includes("req-500") && /name/.test(line))).toBe(true);
  } finally {
    logged.mockRestore();
    await (await db()).$executeRawUnsafe(`ALTER TABLE tenants RENAME COLUMN name_gone TO name`);
  }
});
