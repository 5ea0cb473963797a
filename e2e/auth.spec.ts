import { expect, OPERATOR_EMAIL, OPERATOR_PASSWORD, test, uniqueName } from "./fixtures";

test("an operator signs in, creates a tenant, sees it listed and signs out", async ({ page, loginPage, tenantsPage }) => {
  await loginPage.goto();
  await loginPage.signIn(OPERATOR_EMAIL, OPERATOR_PASSWORD);
  await page.waitForURL("**/tenants");
  await tenantsPage.waitUntilLoaded();
  await expect(tenantsPage.shell.signedInAs(OPERATOR_EMAIL)).toBeVisible();

  const name = uniqueName("Acme");
  await tenantsPage.create(name);
  await expect(tenantsPage.toast).toContainText(`Tenant ${name} created`);
  await expect(tenantsPage.nameInput).toHaveValue("");
  await expect(tenantsPage.table.getByRole("link").first()).toHaveText(name);

  await tenantsPage.shell.signOut();
  await expect(loginPage.submit).toBeVisible();
  await page.goto("/tenants");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Ftenants$/);
});

test("a wrong password shows an error and keeps the visitor on the sign-in page", async ({ page, loginPage }) => {
  await loginPage.goto();
  await loginPage.signIn(OPERATOR_EMAIL, "not-the-password");
  await expect(loginPage.error).toHaveText("Email or password is incorrect");
  await expect(page).toHaveURL(/\/login$/);
  await expect(loginPage.submit).toBeEnabled();
});

test("a signed-out visitor is sent to sign in, then back to the page asked for", async ({ page, api, loginPage, tenantDetailPage }) => {
  const tenant = await api.createTenant(uniqueName("Callback"));
  await page.goto(`/tenants/${tenant.id}`);
  await expect(page).toHaveURL(`/login?callbackUrl=${encodeURIComponent(`/tenants/${tenant.id}`)}`);

  await loginPage.waitUntilReady();
  await loginPage.signIn(OPERATOR_EMAIL, OPERATOR_PASSWORD);
  await page.waitForURL(`**/tenants/${tenant.id}`);
  await expect(tenantDetailPage.heading(tenant.name)).toBeVisible();
});

test("the sign-in page sends a signed-in user on to the console", async ({ signedIn: _, page }) => {
  await page.goto("/login");
  await expect(page).toHaveURL(/\/tenants$/);
});

test("a callback to another site is ignored", async ({ page, loginPage }) => {
  await loginPage.goto("//evil.example.com/steal");
  await loginPage.signIn(OPERATOR_EMAIL, OPERATOR_PASSWORD);
  await page.waitForURL("**/tenants");
  expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL!).host);
});
