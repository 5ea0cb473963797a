/**
 * The session expires mid-edit (its cookie is gone): Save opens a sign-in dialog over the page,
 * and once the same user has signed in again the change is saved; as anyone else, it is not, the
 * console says why and the form keeps what was typed.
 */
import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD, OPERATOR_TOKEN } from "./constants";
import { expect, test, uniqueName } from "./identity";

async function shoot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  const size = page.viewportSize();
  await page.screenshot({ path: `${dir}/${name}-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-phone.png` });
  if (size) await page.setViewportSize(size);
}

test("Save after the session expired asks to sign in again, then saves the change", async ({ signedIn: _, page, context, tenantsPage }) => {
  await tenantsPage.waitUntilLoaded();
  const name = uniqueName("Kept");
  await tenantsPage.nameInput.fill(name);
  await context.clearCookies();
  await tenantsPage.createButton.click();

  const dialog = page.getByRole("dialog", { name: "Your session has expired" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/tenants$/);
  await expect(dialog.getByLabel("Email")).toHaveValue(OPERATOR_EMAIL);
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "session-expired-dialog");

  await dialog.getByLabel("Password").fill("wrong-password-1");
  await dialog.getByRole("button", { name: "Sign in and save" }).click();
  await expect(dialog.getByRole("alert")).toBeVisible();
  await dialog.getByLabel("Password").fill(OPERATOR_PASSWORD);
  await dialog.getByRole("button", { name: "Sign in and save" }).click();
  await expect(dialog).toBeHidden();
  await expect(tenantsPage.toast).toContainText(`Tenant ${name} created`);
  await expect(tenantsPage.table.getByRole("link", { name })).toBeVisible();
});

test("signing in again as someone else does not save, says why and keeps the form", async ({
  signedIn: _,
  page,
  context,
  tenantsPage,
  people,
}) => {
  const { person: other } = await people.tenantWith("admin", "Other user");
  await tenantsPage.waitUntilLoaded();
  const name = uniqueName("Not saved");
  await tenantsPage.nameInput.fill(name);
  await context.clearCookies();
  await tenantsPage.createButton.click();

  const dialog = page.getByRole("dialog", { name: "Your session has expired" });
  await dialog.getByLabel("Email").fill(other.email);
  await dialog.getByLabel("Password").fill(other.password);
  await dialog.getByRole("button", { name: "Sign in and save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("reauth-notice")).toContainText(`You are now signed in as ${other.email}`);
  await expect(tenantsPage.nameInput).toHaveValue(name);
  await shoot(page, "session-expired-other-user");
  // Newest first: had it been created, it would be on the first page.
  const listed = await page.request.get("/api/v1/tenants?page_size=100", { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
  expect(((await listed.json()) as { results: Array<{ name: string }> }).results.map((t) => t.name)).not.toContain(name);
});
