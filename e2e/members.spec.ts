import { expect, PASSWORD, signInAs, test, uniqueEmail } from "./identity";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD } from "./constants";

// Fails on any console or page error the journeys do not expect (e2e/fixtures.ts, consoleErrors).
test.use({
  allowedConsoleErrors: {
    "the last admin demoting themselves is refused; the page says why": /\/api\/trpc\/members\.update\?.*status of 409/,
    "inviting a member is refused; the dialog shows the answer": /\/api\/trpc\/invitations\.create\?.*status of 409/,
  },
});

// Admin-set first passwords are for platform operators only; tenant admins invite (invitations.spec.ts).
test("an operator adds a viewer with a password; the viewer signs in and can only look", async ({ page, people, membersPage, request }) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Viewer journey");
  const viewerEmail = uniqueEmail("viewer");

  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  await membersPage.goto(tenant.id);
  await membersPage.addMember({ email: viewerEmail, name: "Vera Viewer", role: "viewer", password: PASSWORD });
  await expect(membersPage.dialog).toBeHidden();
  await expect(membersPage.toast).toContainText(`${viewerEmail} added as viewer`);
  await expect(membersPage.row(viewerEmail)).toContainText("Vera Viewer");
  await expect(membersPage.row(viewerEmail)).not.toContainText("No password");
  await expect(membersPage.roleSelect(viewerEmail)).toHaveValue("viewer");

  await membersPage.shell.signOut();
  await signInAs(page, viewerEmail, PASSWORD);
  await membersPage.goto(tenant.id);
  await expect(membersPage.row(admin.email)).toContainText("Admin");
  await expect(membersPage.row(viewerEmail)).toContainText("Viewer");
  await expect(membersPage.readOnlyNote).toBeVisible();
  await expect(membersPage.addButton).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: /^Role of / })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Remove|Set password for) / })).toHaveCount(0);
  await page.getByRole("link", { name: "SSO", exact: true }).first().click();
  await expect(page.getByRole("button", { name: "Add provider" })).toHaveCount(0);

  // The server refuses the viewer's writes whatever the console shows: over REST with a token
  // the operator minted for the viewer, and over the console's own tRPC endpoint.
  const viewerId = (await people.listMembers(tenant.id)).find((m) => m.email === viewerEmail)!.user_id;
  const token = await people.mintToken(viewerId, "viewer's token");
  const asViewer = { Authorization: `Bearer ${token}` };
  const add = await request.post(`/api/v1/tenants/${tenant.id}/members`, {
    headers: asViewer,
    data: { email: uniqueEmail("x"), role: "admin" },
  });
  expect(add.status()).toBe(403);
  const promote = await request.patch(`/api/v1/tenants/${tenant.id}/members/${viewerId}`, { headers: asViewer, data: { role: "admin" } });
  expect(promote.status()).toBe(403);
  const viaConsole = await page.request.post("/api/trpc/members.update", {
    data: { tenant_id: tenant.id, user_id: viewerId, role: "admin" },
  });
  expect(viaConsole.status()).toBe(403);
  expect((await people.listMembers(tenant.id)).find((m) => m.user_id === viewerId)!.role).toBe("viewer");
});

test("an admin changes roles: promoting asks first, naming the person; the last admin cannot demote themselves", async ({
  page,
  people,
  membersPage,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Roles");
  const other = await people.addMember(tenant.id, { email: uniqueEmail("other"), role: "viewer" });

  await signInAs(page, admin.email, admin.password);
  // The first members come with the page's HTML (rendered on the server).
  const html = await (await page.request.get(`/tenants/${tenant.id}/members`)).text();
  expect(html).toContain('data-testid="member-row"');
  await membersPage.goto(tenant.id);

  await membersPage.roleSelect(admin.email).selectOption("viewer");
  await expect(membersPage.dialog).toContainText("Make yourself a viewer?");
  await membersPage.dialog.getByRole("button", { name: "Make me a viewer" }).click();
  await expect(membersPage.actionError).toContainText("last admin");
  await expect(membersPage.roleSelect(admin.email)).toHaveValue("admin");

  // Promoting asks first, naming the person; cancelling changes nothing.
  await membersPage.roleSelect(other.email).selectOption("admin");
  await expect(membersPage.dialog.getByRole("heading")).toHaveText(`Make ${other.email} an admin?`);
  await membersPage.dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(membersPage.dialog).toBeHidden();
  await expect(membersPage.roleSelect(other.email)).toHaveValue("viewer");
  expect((await people.listMembers(tenant.id)).find((m) => m.user_id === other.user_id)!.role).toBe("viewer");

  await membersPage.roleSelect(other.email).selectOption("admin");
  await membersPage.dialog.getByRole("button", { name: "Make admin" }).click();
  await expect(membersPage.toast).toContainText(`${other.email} is now admin`);
  expect((await people.listMembers(tenant.id)).find((m) => m.user_id === other.user_id)!.role).toBe("admin");
});

test("removing a member asks first, naming them; an operator gives a member without a password one", async ({
  page,
  people,
  membersPage,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Remove");
  const leaving = await people.addMember(tenant.id, { email: uniqueEmail("leaving"), role: "viewer" });
  const newcomer = await people.addMember(tenant.id, { email: uniqueEmail("newcomer"), role: "viewer" });

  await signInAs(page, admin.email, admin.password);
  await membersPage.goto(tenant.id);

  await membersPage.removeButton(leaving.email).click();
  await expect(membersPage.dialog).toContainText(leaving.email);
  await membersPage.dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(membersPage.dialog).toBeHidden();
  await expect(membersPage.removeButton(leaving.email)).toBeFocused();
  await membersPage.removeButton(leaving.email).click();
  await membersPage.dialog.getByRole("button", { name: "Remove member" }).click();
  await expect(membersPage.row(leaving.email)).toHaveCount(0);
  await expect(membersPage.toast).toContainText(`${leaving.email} removed`);

  await expect(membersPage.row(newcomer.email)).toContainText("No password");
  await expect(membersPage.setPasswordButton(newcomer.email)).toHaveCount(0);
  await expect(membersPage.addButton).toHaveCount(0);
  // Not only hidden: the console's endpoint refuses a tenant admin.
  const byAdmin = await page.request.post("/api/trpc/members.setPassword", {
    data: { tenant_id: tenant.id, user_id: newcomer.user_id, password: "admin-chosen-1" },
  });
  expect(byAdmin.status()).toBe(403);
  await membersPage.shell.signOut();
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  await membersPage.goto(tenant.id);
  await membersPage.setPasswordButton(newcomer.email).click();
  await membersPage.dialog.getByLabel("Password", { exact: true }).fill("short");
  await membersPage.dialog.getByRole("button", { name: "Set password" }).click();
  await expect(membersPage.dialog).toContainText("Password must be at least 8 characters");
  await membersPage.dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await membersPage.dialog.getByLabel("Confirm password").fill(PASSWORD);
  await membersPage.dialog.getByRole("button", { name: "Set password" }).click();
  await expect(membersPage.dialog).toBeHidden();
  await expect(membersPage.row(newcomer.email)).not.toContainText("No password");
  await expect(membersPage.setPasswordButton(newcomer.email)).toHaveCount(0);

  await membersPage.shell.signOut();
  await signInAs(page, newcomer.email, PASSWORD);
});

test("inviting someone who is already a member shows the server's answer in the dialog", async ({ page, people, membersPage }) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Duplicate");
  await signInAs(page, admin.email, admin.password);
  await membersPage.goto(tenant.id);

  await membersPage.invite({ email: "not-an-email", role: "viewer" });
  await expect(membersPage.dialog.getByText("Email must be an email address")).toBeVisible();
  await expect(membersPage.dialog.getByLabel("Email")).toBeFocused();

  await membersPage.dialog.getByLabel("Email").fill(admin.email.toUpperCase());
  await membersPage.dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(membersPage.dialog.getByRole("alert")).toContainText("already a member");
  await page.keyboard.press("Escape");
  await expect(membersPage.dialog).toBeHidden();
  await expect(membersPage.inviteButton).toBeFocused();
});
