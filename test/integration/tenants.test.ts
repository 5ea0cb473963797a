import { beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db, operator } from "../support/fixtures.ts";

const api = apiServer();
let ops: ReturnType<typeof client>;

beforeAll(async () => {
  ops = client(api.url, (await operator()).token);
});

/** Inserts `n` tenants with distinct, increasing created_at values. */
async function seedTenants(n: number, prefix: string) {
  const prisma = await db();
  const base = Date.now() - 10 * 24 * 3600_000;
  await prisma.tenant.createMany({
    data: Array.from({ length: n }, (_, i) => ({ name: `${prefix} ${i}`, createdAt: new Date(base + i * 1000) })),
  });
}

describe("POST /api/v1/tenants", () => {
  test("creates a tenant: 201, Location, trimmed name, and a tenant.created audit event", async () => {
    const res = await ops.post("/api/v1/tenants", { name: "  Acme Corp  " });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ id: expect.any(String), name: "Acme Corp", created_at: expect.any(String) });
    expect(res.headers.get("location")).toBe(`${api.url}/api/v1/tenants/${res.json.id}`);
    expect(new Date(res.json.created_at).toISOString()).toBe(res.json.created_at);

    const events = await (await db()).auditEvent.findMany({ where: { tenantId: res.json.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventType: "tenant.created",
      targetType: "tenant",
      targetId: res.json.id,
      details: { name: "Acme Corp" },
    });
    expect(events[0]!.actorEmail).toMatch(/@example\.com$/);

    const fetched = await ops.get(res.headers.get("location")!);
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual(res.json);
  });

  test.each([
    ["missing name", {}, "name"],
    ["empty name", { name: "" }, "name"],
    ["blank name", { name: "   " }, "name"],
    ["name over 100 characters", { name: "x".repeat(101) }, "name"],
    ["name of the wrong type", { name: 42 }, "name"],
    ["unknown field", { name: "ok", plan: "gold" }, ""],
  ])("rejects %s with 400 naming the field", async (_label, body, field) => {
    const before = await (await db()).tenant.count();
    const res = await ops.post("/api/v1/tenants", body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.json).toMatchObject({ status: 400, code: "invalid_request", title: "Invalid request" });
    expect(res.json.errors.length).toBeGreaterThan(0);
    if (field) expect(res.json.errors[0].path).toBe(field);
    else expect(res.json.detail).toMatch(/plan/);
    expect(await (await db()).tenant.count()).toBe(before);
  });

  test("accepts a name of exactly 100 characters", async () => {
    const res = await ops.post("/api/v1/tenants", { name: "n".repeat(100) });
    expect(res.status).toBe(201);
  });

  test("415 without a JSON content type, 413 over 1 MiB, 400 on malformed JSON", async () => {
    const text = await ops.post("/api/v1/tenants", "name=x", { "content-type": "text/plain" });
    expect(text.status).toBe(415);
    expect(text.json.code).toBe("unsupported_media_type");

    const big = await ops.post("/api/v1/tenants", JSON.stringify({ name: "x".repeat(1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(big.json.code).toBe("payload_too_large");

    const broken = await ops.post("/api/v1/tenants", "{not json");
    expect(broken.status).toBe(400);
    expect(broken.json.errors[0].path).toBe("body");
  });
});

describe("GET /api/v1/tenants", () => {
  let tenantIds: string[];
  beforeAll(async () => {
    await seedTenants(45, "Listed");
    tenantIds = (await (await db()).tenant.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] })).map((t) => t.id);
  });

  test("answers the list envelope, newest first, 20 by default", async () => {
    const res = await ops.get("/api/v1/tenants");
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(["count", "next", "next_cursor", "previous", "previous_cursor", "results"]);
    expect(res.json.count).toBe(tenantIds.length);
    expect(res.json.results.map((t: { id: string }) => t.id)).toEqual(tenantIds.slice(0, 20));
    expect(res.json.previous).toBeNull();
    expect(res.json.previous_cursor).toBeNull();
    expect(res.json.next).toBe(`${api.url}/api/v1/tenants?page=2`);
    expect(res.json.next_cursor).toEqual(expect.any(String));
  });

  test("page 2 via the next link keeps the other parameters", async () => {
    // A blank search filters nothing; the link keeps it as sent.
    const first = await ops.get("/api/v1/tenants?page_size=10&search=");
    const next = new URL(first.json.next);
    expect(next.searchParams.get("page")).toBe("2");
    expect(next.searchParams.get("page_size")).toBe("10");
    expect(next.searchParams.get("search")).toBe("");
    const second = await ops.get(first.json.next);
    expect(second.json.results.map((t: { id: string }) => t.id)).toEqual(tenantIds.slice(10, 20));
    expect(new URL(second.json.previous).searchParams.get("page")).toBe("1");
  });

  test("a page past the end is 200 with no results", async () => {
    const res = await ops.get("/api/v1/tenants?page=999");
    expect(res.status).toBe(200);
    expect(res.json.results).toEqual([]);
    expect(res.json.next).toBeNull();
  });

  test("a cursor walk sees every tenant once, even while tenants are created mid-walk", async () => {
    const seen: string[] = [];
    let url: string | null = "/api/v1/tenants?page_size=7";
    let pages = 0;
    while (url) {
      const res = await ops.get(url);
      expect(res.status).toBe(200);
      seen.push(...res.json.results.map((t: { id: string }) => t.id));
      if (pages === 1) {
        // New tenants are newer than everything: they must not shift the walk.
        for (let i = 0; i < 3; i++) expect((await ops.post("/api/v1/tenants", { name: `Mid-walk ${i}` })).status).toBe(201);
      }
      if (res.json.next) {
        const next = new URL(res.json.next);
        if (pages > 0) expect(next.searchParams.has("page")).toBe(false);
        url = pages === 0 ? `/api/v1/tenants?page_size=7&cursor=${encodeURIComponent(res.json.next_cursor)}` : res.json.next;
      } else url = null;
      pages++;
    }
    expect(seen).toEqual(tenantIds);
    expect(new Set(seen).size).toBe(seen.length);
  });

  test("previous cursors walk back to the first page", async () => {
    const first = await ops.get("/api/v1/tenants?page_size=5");
    const second = await ops.get(`/api/v1/tenants?page_size=5&cursor=${encodeURIComponent(first.json.next_cursor)}`);
    const back = await ops.get(second.json.previous);
    expect(back.json.results.map((t: { id: string }) => t.id)).toEqual(first.json.results.map((t: { id: string }) => t.id));
  });

  test("cursor wins over page", async () => {
    const first = await ops.get("/api/v1/tenants?page_size=5");
    const second = await ops.get("/api/v1/tenants?page_size=5&page=2");
    const res = await ops.get(`/api/v1/tenants?page_size=5&page=7&cursor=${encodeURIComponent(first.json.next_cursor)}`);
    expect(res.json.results.map((t: { id: string }) => t.id)).toEqual(second.json.results.map((t: { id: string }) => t.id));
  });

  test("page_size above 100 is clamped to 100", async () => {
    await seedTenants(60, "Bulk");
    const res = await ops.get("/api/v1/tenants?page_size=500");
    expect(res.status).toBe(200);
    expect(res.json.results).toHaveLength(100);
    expect(res.json.count).toBeGreaterThan(100);
  });

  test.each([
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=abc", "page"],
    ["page=1.5", "page"],
    ["page_size=0", "page_size"],
    ["page_size=ten", "page_size"],
    ["cursor=not-a-cursor", "cursor"],
    [`cursor=${Buffer.from(JSON.stringify(["n", "yesterday", "x"])).toString("base64url")}`, "cursor"],
  ])("400 for malformed %s", async (query, field) => {
    const res = await ops.get(`/api/v1/tenants?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_request");
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(field);
  });
});

describe("tenant visibility", () => {
  test("a user who is not an operator sees only the tenants it belongs to; others are 404", async () => {
    const prisma = await db();
    const mine = await prisma.tenant.create({ data: { name: "Mine" } });
    const theirs = await prisma.tenant.create({ data: { name: "Theirs" } });
    const user = await createUser();
    await prisma.membership.create({ data: { tenantId: mine.id, userId: user.id, role: "admin" } });
    const member = client(api.url, await createToken(user.id));

    const list = await member.get("/api/v1/tenants");
    expect(list.json.count).toBe(1);
    expect(list.json.results.map((t: { id: string }) => t.id)).toEqual([mine.id]);
    expect((await member.get(`/api/v1/tenants/${mine.id}`)).status).toBe(200);

    const other = await member.get(`/api/v1/tenants/${theirs.id}`);
    expect(other.status).toBe(404);
    expect(other.text).not.toContain("Theirs");
    expect((await member.get("/api/v1/tenants/not-a-uuid")).status).toBe(404);
  });

  test("a tenant-scoped token sees only its tenant", async () => {
    const prisma = await db();
    const [a, b] = [await prisma.tenant.create({ data: { name: "A" } }), await prisma.tenant.create({ data: { name: "B" } })];
    const ops = await createUser({ platformRole: "operator" });
    const scoped = client(api.url, await createToken(ops.id, { tenantId: a.id }));
    const list = await scoped.get("/api/v1/tenants");
    expect(list.json.results.map((t: { id: string }) => t.id)).toEqual([a.id]);
    expect((await scoped.get(`/api/v1/tenants/${b.id}`)).status).toBe(404);
  });
});
