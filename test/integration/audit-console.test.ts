/**
 * What the audit page of the console asks: the actor filter by email (audit.list's actor_email)
 * and which targets still exist to link to (audit.existingTargets).
 */
import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { database } from "../../server/db/client.ts";
import { emitEvent } from "../support/events.ts";
import { createUser, db, tenantWithMembers } from "../support/fixtures.ts";
import { codeOf, consoleAs } from "../support/console-caller.ts";

/** An event by `user` in `tenantId`, as the console's own changes record them. */
async function actedIn(tenantId: string, user: { id: string; email: string }) {
  const { sql } = await database();
  await emitEvent(sql, { id: user.id, email: user.email, ip: null, userAgent: null }, { type: "user.login", tenantId });
}

describe("the console's actor filter by email: audit.list with actor_email", () => {
  test("finds the events of anyone the log holds the email of, in any case: an application's own actor, an operator", async () => {
    const world = await tenantWithMembers();
    const t = world.tenant.id;
    const { sql } = await database();
    // An application's own actor: no user has this email.
    await emitEvent(
      sql,
      { id: "crm-42", email: "Customer.Person@Example.com", ip: null, userAgent: null },
      { type: "app.login", tenantId: t },
    );
    const operator = await createUser({ platformRole: "operator", email: `ops.${randomUUID().slice(0, 8)}@example.com` });
    await actedIn(t, operator);
    await actedIn((await tenantWithMembers()).tenant.id, world.viewer.user); // elsewhere: not in this tenant's answers

    const viewer = await consoleAs(world.viewer.user.id);
    const actorsOf = async (email: string) => (await viewer.audit.list({ tenant_id: t, actor_email: email })).results.map((e) => e.actor);
    // `name`: what acted, in words (here, the email each was recorded with).
    expect(await actorsOf("customer.person@example.COM")).toEqual([
      { id: "crm-42", email: "Customer.Person@Example.com", name: "Customer.Person@Example.com" },
    ]);
    expect(await actorsOf(operator.email.toUpperCase())).toEqual([{ id: operator.id, email: operator.email, name: operator.email }]);
    expect(await actorsOf(world.viewer.user.email)).toEqual([]);
    expect(await codeOf(viewer.audit.list({ tenant_id: t, actor_email: "" }))).toBe("BAD_REQUEST");
  });
});

describe("audit.existingTargets: links only to what still exists", () => {
  test("members, providers and webhooks of the tenant exist; removed ones and other tenants' do not", async () => {
    const world = await tenantWithMembers();
    const other = await tenantWithMembers();
    const t = world.tenant.id;
    const prisma = await db();
    const hook = await prisma.webhook.create({
      data: { tenantId: t, url: "https://hooks.example.test/a", events: ["*"], secretCiphertext: "x", secretHint: "x" },
    });
    const otherHook = await prisma.webhook.create({
      data: { tenantId: other.tenant.id, url: "https://hooks.example.test/b", events: ["*"], secretCiphertext: "x", secretHint: "x" },
    });
    const removed = await createUser();
    const caller = await consoleAs(world.viewer.user.id);
    const { results } = await caller.audit.existingTargets({
      tenant_id: t,
      targets: [
        { type: "tenant", id: t },
        { type: "tenant", id: other.tenant.id },
        { type: "user", id: world.admin.user.id },
        { type: "user", id: removed.id },
        { type: "user", id: other.admin.user.id },
        { type: "webhook", id: hook.id },
        { type: "webhook", id: otherHook.id },
        { type: "sso_provider", id: "not-a-uuid" },
      ],
    });
    expect(results).toEqual(
      expect.arrayContaining([
        { type: "tenant", id: t },
        { type: "user", id: world.admin.user.id },
        { type: "webhook", id: hook.id },
      ]),
    );
    expect(results).toHaveLength(3);
  });
});
