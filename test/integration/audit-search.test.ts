/**
 * The platform-wide audit search (GET /api/v1/audit and /audit/export): support finds an event
 * without knowing its tenant. Operators and support only; each result names its tenant; cursors
 * walk across tenants; every search and export is itself audited (`audit.searched`, a platform
 * event). Its plans at a million events: audit-search-plans.test.ts.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, operator, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { emitEvent } from "../support/events.ts";

const api = apiServer();
const T0 = Date.parse("2026-03-01T00:00:00Z");

let acme: Awaited<ReturnType<typeof tenantWithMembers>>;
let beta: Awaited<ReturnType<typeof tenantWithMembers>>;
let op: Awaited<ReturnType<typeof operator>>;
let supportToken: string;
/** Alice's events, newest first, with their tenants. */
const alice: Array<{ id: string; tenant: string }> = [];
let invoiceInBeta: string;

beforeAll(async () => {
  acme = await tenantWithMembers(`Acme ${Date.now()}`);
  beta = await tenantWithMembers(`Beta ${Date.now()}`);
  op = await operator();
  supportToken = await createToken((await createUser({ platformRole: "support" })).id);
  const { sql } = await database();
  const seed = [
    { tenant: acme.tenant.id, email: "Alice@Example.com", type: "app.login", target: null },
    { tenant: beta.tenant.id, email: "alice@example.com", type: "invoice.paid", target: { type: "invoice", id: "inv-42" } },
    { tenant: acme.tenant.id, email: "bob@example.com", type: "invoice.paid", target: { type: "invoice", id: "inv-42" } },
    { tenant: beta.tenant.id, email: "ALICE@example.com", type: "app.login", target: { type: "user", id: "inv-42" } },
    { tenant: acme.tenant.id, email: "alice@example.com", type: "app.logout", target: null },
  ];
  for (const [i, s] of seed.entries()) {
    const { id } = await emitEvent(
      sql,
      { id: `ext-${i}`, email: s.email, ip: null, userAgent: null },
      { type: s.type, tenantId: s.tenant, target: s.target ?? undefined, timestamp: new Date(T0 + i * 60_000) },
    );
    if (s.email.toLowerCase() === "alice@example.com") alice.unshift({ id, tenant: s.tenant });
    if (s.type === "invoice.paid" && s.tenant === beta.tenant.id) invoiceInBeta = id;
  }
});

describe("GET /api/v1/audit", () => {
  test("finds an actor's events in every tenant, newest first, each naming its tenant; cursors walk across tenants", async () => {
    const c = client(api.url, op.token);
    const first = await c.get(`/api/v1/audit?actor_email=ALICE@example.com&page_size=2`);
    expect(first.status, first.text).toBe(200);
    expect(first.json.count).toBe(4);
    const walked = [...first.json.results];
    let next: string | null = first.json.next_cursor;
    while (next) {
      const page = await c.get(`/api/v1/audit?actor_email=ALICE@example.com&page_size=2&cursor=${next}`);
      expect(page.status, page.text).toBe(200);
      walked.push(...page.json.results);
      next = page.json.next_cursor;
    }
    expect(walked.map((e) => e.id)).toEqual(alice.map((a) => a.id));
    expect(walked.map((e) => e.tenant_id)).toEqual(alice.map((a) => a.tenant));
    for (const e of walked) expect(e.tenant_name).toBe(e.tenant_id === acme.tenant.id ? acme.tenant.name : beta.tenant.name);
    // And back: the previous cursor of the last page gives the page before it.
    const back = await c.get(`/api/v1/audit?actor_email=ALICE@example.com&page_size=2&cursor=${first.json.next_cursor}`);
    const prev = await c.get(`/api/v1/audit?actor_email=ALICE@example.com&page_size=2&cursor=${back.json.previous_cursor}`);
    expect(prev.json.results.map((e: { id: string }) => e.id)).toEqual(first.json.results.map((e: { id: string }) => e.id));
  });

  test("filters by target id and type, event type (prefix too) and dates, combined", async () => {
    const c = client(api.url, supportToken);
    const byTarget = await c.get(`/api/v1/audit?target_id=inv-42`);
    expect(byTarget.status, byTarget.text).toBe(200);
    expect(byTarget.json.count).toBe(3);
    const typed = await c.get(`/api/v1/audit?target_id=inv-42&target_type=invoice`);
    expect(typed.json.results.map((e: { target: { type: string } }) => e.target.type)).toEqual(["invoice", "invoice"]);
    const inBeta = await c.get(`/api/v1/audit?target_id=inv-42&target_type=invoice&actor_email=alice@example.com`);
    expect(inBeta.json.results.map((e: { id: string }) => e.id)).toEqual([invoiceInBeta]);
    // A kind alone is counted from every tenant's chain head.
    const paid = await c.get(`/api/v1/audit?event_type=invoice.paid&page_size=1`);
    expect(paid.json.count).toBe(2);
    expect(paid.json.results.map((e: { tenant_id: string }) => e.tenant_id)).toEqual([acme.tenant.id]);
    const older = await c.get(`/api/v1/audit?event_type=invoice.paid&page_size=1&cursor=${paid.json.next_cursor}`);
    expect(older.json.results.map((e: { id: string }) => e.id)).toEqual([invoiceInBeta]);
    const prefix = await c.get(`/api/v1/audit?event_type=app.*&actor_email=alice@example.com`);
    expect(prefix.json.count).toBe(3);
    const dated = await c.get(
      `/api/v1/audit?event_type=app.login&start_date=${new Date(T0 + 60_000).toISOString()}&end_date=${new Date(T0 + 10 * 60_000).toISOString()}`,
    );
    expect(dated.json.results.map((e: { tenant_id: string }) => e.tenant_id)).toEqual([beta.tenant.id]);
    // `from` and `to`, the names, are the same window; one form or the other.
    const window = `from=${new Date(T0 + 60_000).toISOString()}&to=${new Date(T0 + 10 * 60_000).toISOString()}`;
    const fromTo = await c.get(`/api/v1/audit?event_type=app.login&${window}`);
    expect(fromTo.status, fromTo.text).toBe(200);
    expect(fromTo.json.results.map((e: { id: string }) => e.id)).toEqual(dated.json.results.map((e: { id: string }) => e.id));
    const exported = await c.get(`/api/v1/audit/export?event_type=app.login&${window}`);
    expect(exported.json.map((e: { id: string }) => e.id)).toEqual(dated.json.results.map((e: { id: string }) => e.id));
    const both = await c.get(`/api/v1/audit?event_type=app.login&${window}&start_date=${new Date(T0).toISOString()}`);
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.json)).toContain("from");
    const backwards = await c.get(
      `/api/v1/audit?event_type=app.login&from=${new Date(T0 + 60_000).toISOString()}&to=${new Date(T0).toISOString()}`,
    );
    expect(backwards.status).toBe(400);
  });

  test("needs one selective filter; refuses tenant users (403) and a token confined to a tenant", async () => {
    const bare = await client(api.url, op.token).get(`/api/v1/audit?target_type=invoice`);
    expect(bare.status).toBe(400);
    expect(bare.json.errors[0].path).toBe("actor_email");
    for (const token of [acme.admin.token, acme.viewer.token, await createToken(op.user.id, { tenantId: acme.tenant.id })]) {
      const res = await client(api.url, token).get(`/api/v1/audit?actor_email=alice@example.com`);
      expect(res.status, res.text).toBe(403);
      expect(res.text).not.toContain("alice");
    }
    expect((await client(api.url).get(`/api/v1/audit?actor_email=alice@example.com`)).status).toBe(401);
  });

  test("a tenant's own list with another tenant's target finds nothing there (isolation stays per tenant)", async () => {
    const res = await client(api.url, acme.admin.token).get(`/api/v1/tenants/${acme.tenant.id}/audit?target_id=inv-42&target_type=invoice`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.results.every((e: { tenant_id: string }) => e.tenant_id === acme.tenant.id)).toBe(true);
    expect(res.json.count).toBe(1);
    const other = await client(api.url, acme.admin.token).get(`/api/v1/tenants/${beta.tenant.id}/audit?target_id=inv-42`);
    expect(other.status).toBe(404);
  });

  test("every search is audited as a platform event: who searched, with which filters", async () => {
    const support = await createUser({ platformRole: "support" });
    const token = await createToken(support.id);
    const searched = await client(api.url, token).get(`/api/v1/audit?target_id=inv-42&event_type=invoice.paid`);
    expect(searched.status).toBe(200);
    const found = await client(api.url, op.token).get(`/api/v1/audit?event_type=audit.searched&actor_id=${support.id}`);
    expect(found.status, found.text).toBe(200);
    const [event] = found.json.results;
    expect(found.json.count).toBe(1);
    expect(event).toMatchObject({
      tenant_id: null,
      tenant_name: null,
      event_type: "audit.searched",
      actor: { id: support.id, email: support.email, name: support.email },
      details: { filters: { target_id: "inv-42", event_type: "invoice.paid" }, results: 2 },
    });
  });
});

describe("GET /api/v1/audit/export", () => {
  test("CSV and JSON of the search's events, with the tenant's id and name on each row; audited with its format", async () => {
    const c = client(api.url, op.token);
    const csv = await c.get(`/api/v1/audit/export?format=csv&actor_email=alice@example.com`);
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="audit-search-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.text.trim().split("\n");
    expect(lines[0]!.startsWith("tenant_id,tenant_name,id,event_type,actor_id,actor_email,")).toBe(true);
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 3))).toEqual(
      alice.map((a) => [a.tenant, a.tenant === acme.tenant.id ? acme.tenant.name : beta.tenant.name, a.id]),
    );

    const json = await c.get(`/api/v1/audit/export?actor_email=alice@example.com&target_id=inv-42&target_type=invoice`);
    expect(json.status, json.text).toBe(200);
    expect(json.json).toEqual([expect.objectContaining({ id: invoiceInBeta, tenant_id: beta.tenant.id, tenant_name: beta.tenant.name })]);

    const audited = await c.get(`/api/v1/audit?event_type=audit.searched&actor_id=${op.user.id}&page_size=100`);
    const formats = audited.json.results.map((e: { details: { format?: string } }) => e.details.format).filter(Boolean);
    expect(formats.sort()).toEqual(["csv", "json"]);
  });

  test("refuses tenant users and searches without a selective filter before the first byte", async () => {
    const refused = await client(api.url, beta.admin.token).get(`/api/v1/audit/export?format=csv&actor_email=alice@example.com`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    const bare = await client(api.url, op.token).get(`/api/v1/audit/export?format=csv`);
    expect(bare.status).toBe(400);
  });
});
