import { expectNoSeriousA11yViolations } from "./axe";
import { expect, signInAs, test } from "./webhooks-fixtures";

test("the webhook dialog's kind picker shows what each kind means and an example", async ({ page, people, webhooksPage }) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Events");
  await signInAs(page, admin.email, admin.password);
  await webhooksPage.goto(tenant.id);
  await webhooksPage.openCreate();
  const dialog = webhooksPage.webhookDialog;
  await dialog.selectedEvents.check();

  const invited = dialog.event("invitation.created");
  await expect(invited).toHaveAccessibleDescription("Someone was invited to the tenant by email.");
  const item = dialog.dialog.getByRole("listitem").filter({ has: page.getByRole("checkbox", { name: "invitation.created", exact: true }) });
  await item.getByText("Example", { exact: true }).click();
  await expect(item.locator("pre")).toContainText('"role": "viewer"');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath("picker-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("picker-390.png") });
});

test("the docs list every event kind with its description and example", async ({ page }) => {
  await page.goto("/docs/events");
  await expect(page.getByRole("heading", { name: "Event types", level: 1 })).toBeVisible();
  const login = page.locator('[id="user.login"]');
  await expect(login).toContainText("A user signed in to the console");
  await login.getByText("Example data").click();
  await expect(login.locator("pre")).toContainText('"method": "password"');
  await expect(page.locator('[id="directory_group.user_added"]')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath("docs-1280.png"), fullPage: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("docs-390.png") });
});
