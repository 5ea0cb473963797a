/**
 * What the audit page of the console asks besides audit.list: an actor filter by email
 * (audit.actorByEmail) and which targets still exist to link to (audit.existingTargets).
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

describe("audit.actorByEmail: the actor filter takes the email of anyone who can have acted in the tenant", () => {
  test("members, former members and staff who acted here resolve, whatever the case typed; a stranger or no user is null", async () => {
    const world = await tenantWithMembers();
    const t = world.tenant.id;
    const operator = await createUser({ platformRole: "operator", email: "ops.person@example.com" });
    await actedIn(t, operator); // platform staff are tied to a tenant by what they did in it
    const support = await createUser({ platformRole: "support" });
    await actedIn(t, support);
    const former = await createUser();
    await actedIn(t, former); // acted while a member; the membership is gone
    const stranger = await createUser(); // a member of another tenant only
    await (await db()).membership.create({ data: { tenantId: (await tenantWithMembers()).tenant.id, userId: stranger.id, role: "admin" } });

    const viewer = await consoleAs(world.viewer.user.id);
    const resolve = async (email: string) => (await viewer.audit.actorByEmail({ tenant_id: t, email })).user_id;
    expect(await resolve("OPS.Person@Example.com")).toBe(operator.id);
    expect(await resolve(support.email)).toBe(support.id);
    expect(await resolve(world.admin.user.email)).toBe(world.admin.user.id);
    expect(await resolve(former.email)).toBe(former.id);
    expect(await resolve(stranger.email)).toBeNull();
    expect(await resolve("nobody-at-all@example.com")).toBeNull();
    expect(await codeOf(viewer.audit.actorByEmail({ tenant_id: t, email: "not an email" }))).toBe("BAD_REQUEST");

    // Another tenant's viewer cannot ask about this tenant at all.
    const other = await tenantWithMembers();
    expect(await codeOf((await consoleAs(other.viewer.user.id)).audit.actorByEmail({ tenant_id: t, email: support.email }))).toBe(
      "NOT_FOUND",
    );
  });

  test("an operator's or support person's email with no tie to the tenant answers as an unknown email does", async () => {
    const world = await tenantWithMembers();
    const t = world.tenant.id;
    const operator = await createUser({ platformRole: "operator" });
    const support = await createUser({ platformRole: "support" });
    await actedIn((await tenantWithMembers()).tenant.id, operator); // busy elsewhere, never here
    const viewer = await consoleAs(world.viewer.user.id);
    const answer = (email: string) => viewer.audit.actorByEmail({ tenant_id: t, email });
    const unknown = await answer(`nobody-${randomUUID().slice(0, 8)}@example.com`);
    expect(unknown).toEqual({ user_id: null });
    expect(await answer(operator.email)).toEqual(unknown);
    expect(await answer(support.email)).toEqual(unknown);
  });

  test("the id it answers filters the list to that operator's events", async () => {
    const world = await tenantWithMembers();
    const operator = await createUser({ platformRole: "operator" });
    await actedIn(world.tenant.id, operator);
    await actedIn(world.tenant.id, world.admin.user);
    const viewer = await consoleAs(world.viewer.user.id);
    const { user_id } = await viewer.audit.actorByEmail({ tenant_id: world.tenant.id, email: operator.email });
    const page = await viewer.audit.list({ tenant_id: world.tenant.id, actor_id: user_id! });
    expect(page.results.map((e) => e.actor)).toEqual([{ id: operator.id, email: operator.email }]);
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
