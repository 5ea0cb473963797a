import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test, uniqueName } from "./fixtures";

test("the sign-in page has no serious accessibility violations", async ({ page, loginPage }) => {
  await loginPage.goto();
  await expectNoSeriousA11yViolations(page);
  await loginPage.signIn("someone@example.com", "wrong-password");
  await expect(loginPage.error).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("the tenants page with tenants has no serious accessibility violations", async ({ signedIn: _, page, api, tenantsPage }) => {
  await api.createTenant(uniqueName("Axe"));
  await page.reload();
  await tenantsPage.waitUntilLoaded();
  await expectNoSeriousA11yViolations(page);

  await tenantsPage.create("");
  await expect(tenantsPage.nameError).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("the tenant page has no serious accessibility violations", async ({ signedIn: _, page, api, tenantDetailPage }) => {
  const tenant = await api.createTenant(uniqueName("Axe detail"));
  await tenantDetailPage.goto(tenant.id);
  await expect(tenantDetailPage.heading(tenant.name)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("the mobile console menu has no serious accessibility violations", async ({ signedIn: _, page, tenantsPage }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await tenantsPage.waitUntilLoaded();
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("the error codes page has no serious accessibility violations", async ({ page }) => {
  await page.goto("/docs/errors");
  await expectNoSeriousA11yViolations(page);
});
