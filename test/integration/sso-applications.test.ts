/**
 * OAuth broker applications over REST (/api/v1/sso/applications): operators register, list, read,
 * change, rotate and delete them; the client secret is shown once and stored hashed; redirect URIs
 * are checked; everyone else gets 403 (the isolation matrix covers every caller kind).
 */
import { beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, operator, tenantWithMembers } from "../support/fixtures.ts";
import { createToken } from "../support/fixtures.ts";
import { eventsOf } from "../support/sso-signin.ts";
import { pkce } from "../support/sso-broker.ts";

const api = apiServer();
let op: ReturnType<typeof client>;
let operatorId: string;

beforeAll(async () => {
  const o = await operator();
  operatorId = o.user.id;
  op = client(api.url, o.token);
});

const BASE = "/api/v1/sso/applications";
const create = (body: unknown) => op.post(BASE, body);

async function tokenRequest(clientId: string, clientSecret: string) {
  // No code: a valid client gets invalid_grant, a wrong one invalid_client.
  const res = await fetch(`${api.url}/api/sso/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: "no-such-code",
      redirect_uri: "https://app.example/cb",
      code_verifier: pkce().verifier,
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  return (await res.json()).error as string;
}

describe("applications", () => {
  test("create → 201 with Location and the secret once; get, list and PATCH never show it; audited", async () => {
    const res = await create({ name: "  Billing  ", redirect_uris: ["https://billing.example/cb", "http://localhost:3000/cb"] });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.any(String),
      name: "Billing",
      client_id: expect.stringMatching(/^cpapp_[0-9a-f]{24}$/),
      client_secret: expect.stringMatching(/^cpsec_[A-Za-z0-9_-]{43}$/),
      redirect_uris: ["https://billing.example/cb", "http://localhost:3000/cb"],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.headers.get("location")).toBe(`${api.url}${BASE}/${res.json.id}`);
    const stored = await (await db()).ssoApplication.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(JSON.stringify(stored)).not.toContain(res.json.client_secret);

    const one = await op.get(`${BASE}/${res.json.id}`);
    expect(one.status).toBe(200);
    expect(one.json.client_secret).toBeUndefined();
    const list = await op.get(`${BASE}?page_size=100`);
    expect(list.json.results.find((a: { id: string }) => a.id === res.json.id)).toMatchObject({ name: "Billing" });
    expect(list.text).not.toContain(res.json.client_secret);

    const patched = await op.patch(`${BASE}/${res.json.id}`, { name: "Billing v2", redirect_uris: ["https://billing.example/v2/cb"] });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ name: "Billing v2", redirect_uris: ["https://billing.example/v2/cb"] });
    expect(patched.json.client_secret).toBeUndefined();

    const events = [...(await eventsOf(null, "sso.application_created")), ...(await eventsOf(null, "sso.application_updated"))].filter(
      (e) => e.targetId === res.json.id,
    );
    expect(events.map((e) => e.eventType)).toEqual(["sso.application_created", "sso.application_updated"]);
    expect(events[0]).toMatchObject({ actorId: operatorId, details: { name: "Billing", client_id: res.json.client_id } });
    expect(events[1]).toMatchObject({ details: { changes: { name: { from: "Billing", to: "Billing v2" } } } });
    expect(JSON.stringify(events.map((e) => e.details))).not.toContain(res.json.client_secret);
  });

  test("lists are paginated like the others", async () => {
    await create({ name: "Page A", redirect_uris: ["https://a.example/cb"] });
    await create({ name: "Page B", redirect_uris: ["https://b.example/cb"] });
    const page = await op.get(`${BASE}?page_size=1`);
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ count: expect.any(Number), results: [expect.any(Object)], next_cursor: expect.any(String) });
    expect(page.json.next).toContain("page=2");
    const next = await op.get(`${BASE}?page_size=1&cursor=${page.json.next_cursor}`);
    expect(next.json.results[0].id).not.toBe(page.json.results[0].id);
  });

  test("rotate-secret returns a new secret once; the old one stops working at once", async () => {
    const app = (await create({ name: "Rotating", redirect_uris: ["https://rot.example/cb"] })).json;
    expect(await tokenRequest(app.client_id, app.client_secret)).toBe("invalid_grant");
    const rotated = await op.post(`${BASE}/${app.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.json.client_secret).toMatch(/^cpsec_/);
    expect(rotated.json.client_secret).not.toBe(app.client_secret);
    expect(await tokenRequest(app.client_id, app.client_secret)).toBe("invalid_client");
    expect(await tokenRequest(app.client_id, rotated.json.client_secret)).toBe("invalid_grant");
    const [event] = (await eventsOf(null, "sso.application_secret_rotated")).filter((e) => e.targetId === app.id);
    expect(JSON.stringify(event!.details)).not.toContain(rotated.json.client_secret);
  });

  test("delete → 204, then 404; its client stops working; audited", async () => {
    const app = (await create({ name: "Doomed", redirect_uris: ["https://doomed.example/cb"] })).json;
    expect((await op.delete(`${BASE}/${app.id}`)).status).toBe(204);
    expect((await op.get(`${BASE}/${app.id}`)).status).toBe(404);
    expect((await op.delete(`${BASE}/${app.id}`)).status).toBe(404);
    expect(await tokenRequest(app.client_id, app.client_secret)).toBe("invalid_client");
    expect((await eventsOf(null, "sso.application_deleted")).some((e) => e.targetId === app.id)).toBe(true);
  });

  test.each([
    ["not a URL", "callback", "must be an absolute URL"],
    ["http to a public host", "http://app.example/cb", "must use https"],
    ["a fragment", "https://app.example/cb#x", "must not have a fragment"],
    ["credentials", "https://user:pw@app.example/cb", "must not contain credentials"],
    ["another scheme", "javascript:alert(1)", "must use https"],
  ])("a redirect URI with %s → 400 naming the field", async (_label, uri, message) => {
    const res = await create({ name: "Bad", redirect_uris: ["https://ok.example/cb", uri] });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ path: "redirect_uris.1", message: expect.stringContaining(message) }]);
  });

  test("name and redirect_uris are required; unknown fields and ids are refused", async () => {
    expect((await create({ redirect_uris: ["https://x.example/cb"] })).json.errors[0].path).toBe("name");
    expect((await create({ name: "x", redirect_uris: [] })).json.errors[0].path).toBe("redirect_uris");
    expect((await create({ name: "x", redirect_uris: ["https://x.example/cb"], client_secret: "mine" })).status).toBe(400);
    expect((await op.get(`${BASE}/not-a-uuid`)).status).toBe(404);
    expect((await op.patch(`${BASE}/00000000-0000-4000-8000-000000000000`, { name: "x" })).status).toBe(404);
  });

  test("only operators: tenant admins and tenant-scoped tokens get 403; an operator's read-only token may read", async () => {
    const { admin, tenant } = await tenantWithMembers();
    const app = (await create({ name: "Guarded", redirect_uris: ["https://guarded.example/cb"] })).json;
    const tenantAdmin = client(api.url, admin.token);
    expect((await tenantAdmin.get(BASE)).status).toBe(403);
    expect((await tenantAdmin.post(BASE, { name: "Mine", redirect_uris: ["https://mine.example/cb"] })).status).toBe(403);
    expect((await tenantAdmin.post(`${BASE}/${app.id}/rotate-secret`)).status).toBe(403);
    const scoped = client(api.url, await createToken(admin.user.id, { tenantId: tenant.id }));
    expect((await scoped.get(`${BASE}/${app.id}`)).status).toBe(403);
    const readOnly = client(api.url, await createToken(operatorId, { readOnly: true }));
    expect((await readOnly.get(`${BASE}/${app.id}`)).status).toBe(200);
    expect((await readOnly.delete(`${BASE}/${app.id}`)).status).toBe(403);
  });
});
