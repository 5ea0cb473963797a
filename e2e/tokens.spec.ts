import { expect, signInAs, test, uniqueName } from "./identity";

test("an admin creates a token, uses it against the API, then revokes it", async ({ page, context, people, tokensPage, request }) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Tokens");
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInAs(page, admin.email, admin.password);
  await tokensPage.goto();
  await expect(tokensPage.emptyState).toBeVisible();

  const name = uniqueName("Deploy");
  await tokensPage.create({ name, tenant });
  await expect(tokensPage.newTokenPanel).toContainText("You will not see it again");
  const value = (await tokensPage.newTokenValue.textContent())!.trim();
  expect(value.length).toBeGreaterThan(20);
  await tokensPage.newTokenPanel.getByRole("button", { name: "Copy" }).click();
  await expect(tokensPage.newTokenPanel.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  await expect(tokensPage.row(name)).toContainText(tenant.name);
  // Named by its prefix and last four characters, the only part of the value ever shown again.
  await expect(tokensPage.row(name).getByTestId("token-display")).toHaveText(`cp_…${value.slice(-4)}`);
  await expect(tokensPage.row(name)).toContainText("Never");

  const auth = { Authorization: `Bearer ${value}` };
  const me = await request.get("/api/v1/me", { headers: auth });
  expect(me.status()).toBe(200);
  const body = (await me.json()) as { user: { email: string }; token: { tenant_id: string | null } };
  expect(body.user.email).toBe(admin.email);
  expect(body.token.tenant_id).toBe(tenant.id);
  const tenants = await request.get("/api/v1/tenants", { headers: auth });
  expect(tenants.status()).toBe(200);
  expect(((await tenants.json()) as { results: Array<{ id: string }> }).results.map((t) => t.id)).toEqual([tenant.id]);

  // Shown once: a reload lists the token but not its value.
  await page.reload();
  await expect(tokensPage.row(name)).toBeVisible();
  await expect(tokensPage.newTokenPanel).toHaveCount(0);
  await expect(page.getByText(value)).toHaveCount(0);

  await tokensPage.revoke(name);
  await expect(tokensPage.toast).toContainText(`Token ${name} revoked`);
  await expect(tokensPage.row(name)).toHaveCount(0);
  await expect(tokensPage.emptyState).toBeVisible();
  expect((await request.get("/api/v1/me", { headers: auth })).status()).toBe(401);
});

test("a read-only token for all tenants is listed as such; a nameless one is refused inline", async ({ page, people, tokensPage }) => {
  const { person } = await people.tenantWith("viewer", "Read-only token");
  await signInAs(page, person.email, person.password);
  await tokensPage.goto();

  await tokensPage.createButton.click();
  await tokensPage.dialog.getByRole("button", { name: "Create token" }).click();
  await expect(tokensPage.dialog.getByText("Name must not be empty")).toBeVisible();
  await expect(tokensPage.dialog.getByLabel("Name")).toBeFocused();
  await tokensPage.dialog.getByRole("button", { name: "Cancel" }).click();

  const name = uniqueName("Reports");
  await tokensPage.create({ name, readOnly: true });
  await expect(tokensPage.row(name)).toContainText("All your tenants");
  await expect(tokensPage.row(name)).toContainText("Read-only");
  await tokensPage.newTokenPanel.getByRole("button", { name: /hide it/ }).click();
  await expect(tokensPage.newTokenPanel).toHaveCount(0);
});
