import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db, operator } from "../support/fixtures.ts";
import { hashToken } from "../../server/auth/tokens.ts";

const api = apiServer();

describe("bearer authentication", () => {
  test("no token: 401 problem with WWW-Authenticate: Bearer and a request id", async () => {
    const res = await client(api.url).get("/api/v1/tenants");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect(res.json).toMatchObject({ code: "unauthenticated", status: 401 });
    expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
  });

  test.each([
    ["an unknown token", async () => "cp_unknown-unknown-unknown-unknown-unknown"],
    ["a malformed token", async () => "not-even-close"],
    ["a revoked token", async () => createToken((await createUser({ platformRole: "operator" })).id, { revokedAt: new Date() })],
    [
      "an expired token",
      async () => createToken((await createUser({ platformRole: "operator" })).id, { expiresAt: new Date(Date.now() - 1000) }),
    ],
  ])("%s: 401 invalid_token", async (_label, make) => {
    const res = await client(api.url, await make()).get("/api/v1/tenants");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
    expect(res.json.code).toBe("unauthenticated");
  });

  test("an empty or non-bearer Authorization header is 401", async () => {
    for (const header of ["Bearer ", "Basic dXNlcjpwYXNz"]) {
      const res = await client(api.url).get("/api/v1/tenants", { authorization: header });
      expect(res.status).toBe(401);
    }
  });

  test("the token is stored hashed and its last use is recorded", async () => {
    const { user, token } = await operator();
    expect((await client(api.url, token).get("/api/v1/tenants")).status).toBe(200);
    const row = await (await db()).apiToken.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.lastUsedAt).not.toBeNull();
  });
});

describe("roles", () => {
  test("a user who is not an operator cannot create a tenant (403)", async () => {
    for (const platformRole of [null, "support"] as const) {
      const user = await createUser({ platformRole });
      const res = await client(api.url, await createToken(user.id)).post("/api/v1/tenants", { name: "Not allowed" });
      expect(res.status).toBe(403);
      expect(res.json.code).toBe("forbidden");
    }
    expect(await (await db()).tenant.count({ where: { name: "Not allowed" } })).toBe(0);
  });

  test("an operator's read-only token cannot create a tenant (403) but can list", async () => {
    const user = await createUser({ platformRole: "operator" });
    const readOnly = client(api.url, await createToken(user.id, { readOnly: true }));
    expect((await readOnly.post("/api/v1/tenants", { name: "Read only" })).status).toBe(403);
    expect((await readOnly.get("/api/v1/tenants")).status).toBe(200);
  });
});

describe("the REST edge", () => {
  test("every response carries X-Request-Id; a sane caller-given id is echoed", async () => {
    const { token } = await operator();
    const ok = await client(api.url, token).get("/api/v1/tenants", { "x-request-id": "trace-123" });
    expect(ok.headers.get("x-request-id")).toBe("trace-123");
    const bad = await client(api.url, token).get("/api/v1/tenants", { "x-request-id": "bad id with spaces" });
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("unknown paths are problem+json 404s; a method a path does not have, a 405 with Allow", async () => {
    const { token } = await operator();
    const wrongMethod = await client(api.url, token).call("DELETE", "/api/v1/tenants");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")?.split(", ").sort()).toEqual(["GET", "HEAD", "POST"]);
    expect(wrongMethod.json.code).toBe("method_not_allowed");
    for (const [method, path] of [
      ["GET", "/api/v1/nothing-here"],
      ["GET", "/api/elsewhere"],
    ] as const) {
      const res = await client(api.url, token).call(method, path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.json.code).toBe("not_found");
      expect(res.headers.get("x-request-id")).toBeTruthy();
    }
  });
});
