// Runs before every other journey (see projects in playwright.config.ts): no tenants exist yet.
import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";

test.describe("an operator on a platform without tenants", () => {
  test.beforeEach(async ({ signedIn: _, tenantsPage }) => {
    await tenantsPage.waitUntilLoaded();
  });

  test("sees the empty state, and its call to action leads to the create form", async ({ page, tenantsPage }) => {
    await expect(tenantsPage.emptyState).toBeVisible();
    // The switcher still opens (⌘K works everywhere) and says there is nothing to switch to.
    await tenantsPage.shell.tenantSwitcher.click();
    await expect(tenantsPage.shell.switcherDialog.getByText("No tenants yet.")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(tenantsPage.shell.switcherDialog).toBeHidden();
    await page.getByRole("button", { name: "Create your first tenant" }).click();
    await expect(tenantsPage.nameInput).toBeFocused();
  });

  test("the empty tenants page has no serious accessibility violations", async ({ page, tenantsPage }) => {
    await expect(tenantsPage.emptyState).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
