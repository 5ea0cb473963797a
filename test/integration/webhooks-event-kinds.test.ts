/**
 * What a webhook may subscribe to: the control plane's kinds that fire in a tenant, the kinds the
 * tenant's application appends (exactly, or by prefix: `invoice.*`), and `*`; and that each
 * subscription is delivered exactly the events it names. Kinds only the platform emits are
 * refused, and the refusal lists what is valid.
 */
import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";

const api = apiServer();
const URL = "https://hooks.example.test/kinds";

async function setup() {
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}`;
  const subscribe = (events: string[]) => admin.post(`${base}/webhooks`, { url: URL, events });
  return { tenantId: world.tenant.id, admin, base, subscribe };
}

/** The event kinds delivered to each webhook, by webhook id. */
async function deliveredKinds(tenantId: string): Promise<Record<string, string[]>> {
  const rows = await (
    await database()
  ).sql.query<{ webhook_id: string; event_type: string }>(
    `SELECT webhook_id, event_type FROM webhook_deliveries WHERE tenant_id = $1::uuid AND event_type NOT LIKE 'webhook.%' ORDER BY event_type`,
    [tenantId],
  );
  const kinds: Record<string, string[]> = {};
  for (const row of rows) (kinds[row.webhook_id] ??= []).push(row.event_type);
  return kinds;
}

describe("subscribing to the tenant's own kinds", () => {
  test("exact kinds and prefixes of appended kinds are accepted, and each gets exactly what it names", async () => {
    const { tenantId, admin, base, subscribe } = await setup();
    const invoices = await subscribe(["invoice.*"]);
    const paid = await subscribe(["invoice.paid"]);
    const nested = await subscribe(["app.billing.*", "user.*"]);
    expect([invoices.status, paid.status, nested.status]).toEqual([201, 201, 201]);
    expect(invoices.json.events).toEqual(["invoice.*"]);

    const events = ["invoice.paid", "invoice.voided", "invoices.paid", "app.billing.refund", "app.login"].map((event_type) => ({
      event_type,
      actor: { id: "billing-service" },
    }));
    expect((await admin.post(`${base}/audit/batch`, { events })).status).toBe(201);

    const delivered = await deliveredKinds(tenantId);
    expect(delivered[invoices.json.id]).toEqual(["invoice.paid", "invoice.voided"]);
    expect(delivered[paid.json.id]).toEqual(["invoice.paid"]);
    expect(delivered[nested.json.id]).toEqual(["app.billing.refund"]);
  });

  test("a prefix of the control plane's kinds is delivered its kinds", async () => {
    const { tenantId, admin, base, subscribe } = await setup();
    const hook = await subscribe(["directory.*"]);
    expect(hook.status).toBe(201);
    expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
    expect((await admin.post(`${base}/directories`, { name: "Kinds" })).status).toBe(201);
    expect((await deliveredKinds(tenantId))[hook.json.id]).toEqual(["directory.created"]);
  });

  test.each([
    ["sso.application_created", "a kind only the platform emits"],
    ["user.deleted", "a made-up kind in the control plane's namespace"],
    ["dsync.*", "a prefix of no kind"],
    ["invoice", "a single word"],
    ["Invoice.Paid", "upper case"],
    ["invoice.*.paid", "a wildcard inside"],
  ])("%s (%s) is a 400 that lists the valid kinds", async (kind) => {
    const { subscribe, admin, base } = await setup();
    const res = await subscribe(["user.created", kind]);
    expect(res.status).toBe(400);
    const [error] = res.json.errors;
    expect(error.path).toBe("events.1");
    expect(error.message).toContain("tenant.created, user.created");
    expect(error.message).toContain("invoice.*");
    expect(error.message).not.toContain("sso.application_created");
    const created = await admin.post(`${base}/webhooks`, { url: URL, events: ["*"] });
    expect((await admin.patch(`${base}/webhooks/${created.json.id}`, { events: [kind] })).status).toBe(400);
  });
});
