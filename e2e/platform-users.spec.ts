/** Platform users (issue 14, item 11): operators search, create and change platform roles; nobody else sees the page. */
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD } from "./constants";
import { uniqueName } from "./fixtures";
import { createPlatformUser, expect, signInAs, test, uniqueEmail } from "./identity";

const SHOTS = process.env.E2E_SCREENSHOTS;

test("an operator creates a support user, finds them, and promotes them to operator after confirming", async ({ page }) => {
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  await page.getByRole("complementary").getByRole("link", { name: "Platform users" }).click();
  await page.waitForURL("**/users");
  await expect(page.getByRole("heading", { level: 1, name: "Platform users" })).toBeVisible();
  await expect(page.getByTestId("user-row").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const email = uniqueEmail("staff");
  await page.getByRole("button", { name: "Create user" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a platform user" });
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog.getByText("Email must be an email address")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("First password").fill("a-first-password-1");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("toast")).toContainText(`${email} can now sign in as support`);

  await page.getByRole("searchbox", { name: "Search users" }).fill(email.slice(0, 20).toUpperCase());
  await page.waitForURL((url) => url.searchParams.get("search") === email.slice(0, 20).toUpperCase());
  const row = page.getByTestId("user-row").filter({ hasText: email });
  await expect(page.getByTestId("user-row")).toHaveCount(1);
  const role = row.getByLabel(`Platform role of ${email}`);
  await expect(role).toHaveValue("support");
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/users-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/users-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  await role.selectOption("operator");
  const confirm = page.getByRole("dialog", { name: `Make ${email} an operator?` });
  await expect(confirm).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(role).toHaveValue("support");
  await role.selectOption("operator");
  await confirm.getByRole("button", { name: "Make operator" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: `${email} is now operator` })).toBeVisible();
  await expect(role).toHaveValue("operator");

  // The new operator signs in with the first password.
  await page.context().clearCookies();
  await signInAs(page, email, "a-first-password-1");
  await expect(page.getByRole("complementary").getByRole("link", { name: "Platform users" })).toBeVisible();
});

test("support staff see Platform users read-only (no create, no role change) and are labelled Support in a tenant", async ({
  page,
  people,
}) => {
  const tenant = await people.createTenant(uniqueName("Support label"));
  const support = createPlatformUser("support");
  await signInAs(page, support.email, support.password);
  await expect(page.getByRole("complementary").getByRole("link", { name: "Tenants" })).toBeVisible();
  await page.goto(`/tenants/${tenant.id}`);
  const access = page.getByRole("term").filter({ hasText: "Your access" }).locator("xpath=following-sibling::dd");
  await expect(access).toContainText("Support");
  await expect(access).not.toContainText("Viewer");
  await page.getByRole("complementary").getByRole("link", { name: "Platform users" }).click();
  await page.waitForURL((url) => url.pathname === "/users");
  await expect(page.getByRole("heading", { level: 1, name: "Platform users" })).toBeVisible();
  await expect(page.getByTestId("user-row").filter({ hasText: support.email })).toContainText("Support");
  await expect(page.getByRole("button", { name: "Create user" })).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: /^Platform role of / })).toHaveCount(0);
  const response = await page.goto("/users");
  expect(response?.status()).toBe(200);
});
