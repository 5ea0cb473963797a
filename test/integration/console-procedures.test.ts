/** Procedures the console calls through tRPC with its session (no REST mapping). */
import { describe, expect, test } from "vitest";
import { checkCredentials } from "../../server/account/users.ts";
import { wasAdded } from "../../server/members/schemas.ts";
import { createUser, db, tenantWithMembers } from "../support/fixtures.ts";
import { codeOf, consoleAs } from "../support/console-caller.ts";

describe("setting a member's first password (console)", () => {
  test("a platform operator sets it for a member without one, who can then sign in; a second time is a conflict", async () => {
    const { tenant } = await tenantWithMembers();
    const caller = await consoleAs((await createUser({ platformRole: "operator" })).id);
    const added = await caller.members.add({ tenant_id: tenant.id, email: `first-pass-${tenant.id}@example.com`, role: "viewer" });
    if (!wasAdded(added)) throw new Error(`invited instead of added: ${JSON.stringify(added)}`);
    expect(added.has_password).toBe(false);
    const updated = await caller.members.setPassword({ tenant_id: tenant.id, user_id: added.user_id, password: "now-i-can-sign-in" });
    expect(updated.has_password).toBe(true);
    expect(await checkCredentials(await db(), added.email, "now-i-can-sign-in")).not.toBeNull();
    expect(await codeOf(caller.members.setPassword({ tenant_id: tenant.id, user_id: added.user_id, password: "another-password" }))).toBe(
      "CONFLICT",
    );
  });

  test("a tenant admin is refused (403): admins invite people by email instead", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const caller = await consoleAs(admin.user.id);
    // Made here, not by the admin: tenant admins invite, so they never create a user without a password.
    const added = await createUser();
    await (await db()).membership.create({ data: { tenantId: tenant.id, userId: added.id, role: "viewer" } });
    expect(await codeOf(caller.members.setPassword({ tenant_id: tenant.id, user_id: added.id, password: "admin-chosen-pass" }))).toBe(
      "FORBIDDEN",
    );
    expect(await checkCredentials(await db(), added.email, "admin-chosen-pass")).toBeNull();
  });

  test("a viewer and support staff cannot set passwords", async () => {
    const { tenant, viewer } = await tenantWithMembers();
    const target = await createUser();
    await (await db()).membership.create({ data: { tenantId: tenant.id, userId: target.id, role: "viewer" } });
    for (const userId of [viewer.user.id, (await createUser({ platformRole: "support" })).id]) {
      const caller = await consoleAs(userId);
      expect(await codeOf(caller.members.setPassword({ tenant_id: tenant.id, user_id: target.id, password: "whatever-pass" }))).toBe(
        "FORBIDDEN",
      );
    }
  });
});

describe("changing your own password (console)", () => {
  test("needs the current password; then only the new one works", async () => {
    const { viewer } = await tenantWithMembers();
    const caller = await consoleAs(viewer.user.id);
    expect(await codeOf(caller.account.changePassword({ current_password: "wrong", new_password: "brand-new-password" }))).toBe(
      "BAD_REQUEST",
    );
    expect(await caller.account.changePassword({ current_password: "viewer-password", new_password: "brand-new-password" })).toEqual({
      ok: true,
    });
    expect(await checkCredentials(await db(), viewer.user.email, "brand-new-password")).not.toBeNull();
    expect(await checkCredentials(await db(), viewer.user.email, "viewer-password")).toBeNull();
  });

  test("console step-up is attached to the session", async () => {
    const { admin } = await tenantWithMembers();
    const caller = await consoleAs(admin.user.id);
    expect((await caller.account.me({})).step_up_expires_at).toBeNull();
    const { step_up_expires_at } = await caller.account.stepUp({ password: "admin-password" });
    expect((await caller.account.me({})).step_up_expires_at).toBe(step_up_expires_at);
    expect(await (await db()).stepUp.count({ where: { subject: `session:session-${admin.user.id}` } })).toBe(1);
  });
});
