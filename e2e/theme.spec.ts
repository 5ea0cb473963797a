/** Dark mode (issue 14, polish): follows the device, axe-clean, and a switch that overrides it and is remembered. */
import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD } from "./constants";
import { expect, signInAs, test } from "./sso-fixtures";
import { MembersPage } from "./pages/members-page";
import { SsoPage } from "./pages/sso-page";
import { TenantDetailPage } from "./pages/tenant-detail-page";
import { TenantsPage } from "./pages/tenants-page";

/** The page background's mean RGB channel, 0 (black) to 255 (white), whatever colour syntax the CSS used. */
function pageBrightness(page: Page): Promise<number> {
  return page.evaluate(() => {
    const context = document.createElement("canvas").getContext("2d")!;
    context.fillStyle = getComputedStyle(document.body).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return (r! + g! + b!) / 3;
  });
}

async function expectDark(page: Page) {
  await expect.poll(() => pageBrightness(page)).toBeLessThan(60);
}

async function expectLight(page: Page) {
  await expect.poll(() => pageBrightness(page)).toBeGreaterThan(200);
}

test.use({ colorScheme: "dark" });

test("the console follows a dark device setting, axe-clean; the theme switch overrides it and is remembered", async ({
  page,
  people,
  ssoApi,
  idp,
}) => {
  const { tenant } = await people.tenantWith("viewer", "Dark");
  await ssoApi.createProvider(tenant.id, {
    provider_type: "saml",
    name: "Okta SAML",
    metadata_url: `${idp.url}/saml.xml`,
    domains: ["dark.example", "a-long-subsidiary-name.dark.example"],
  });
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);

  // System (the default) follows the device: dark, and readable (axe checks colour contrast).
  const tenants = new TenantsPage(page);
  await tenants.waitUntilLoaded();
  await expect(page.locator("html")).toHaveClass("system");
  await expectDark(page);
  await expectNoSeriousA11yViolations(page);

  await new TenantDetailPage(page).goto(tenant.id);
  await expectDark(page);
  await expectNoSeriousA11yViolations(page);

  const members = new MembersPage(page);
  await members.goto(tenant.id);
  await expectNoSeriousA11yViolations(page);

  const sso = new SsoPage(page);
  await sso.goto(tenant.id);
  await page.getByRole("button", { name: "Okta SAML", exact: true }).click();
  await expect(page.getByText("a-long-subsidiary-name.dark.example").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Light overrides the device, at once and after a reload (the server renders the cookie's class).
  const theme = page.getByRole("complementary").getByRole("group", { name: "Theme" });
  await theme.getByText("Light", { exact: true }).click();
  await expect(page.locator("html")).toHaveClass("light");
  await expectLight(page);
  await page.reload();
  await expect(page.locator("html")).toHaveClass("light");
  await expectLight(page);
  await expect(theme.getByRole("radio", { name: "Light" })).toBeChecked();
  expect(await page.evaluate(() => localStorage.getItem("cp-theme"))).toBe("light");

  // Dark holds on a light device too; System follows the device again.
  await page.emulateMedia({ colorScheme: "light" });
  await theme.getByText("Dark", { exact: true }).click();
  await expectDark(page);
  await page.reload();
  await expectDark(page);
  await expectNoSeriousA11yViolations(page);
  await theme.getByText("System", { exact: true }).click();
  await expectLight(page);
});
