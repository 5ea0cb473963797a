/**
 * SSO sign-in in the browser, against a real OpenID Provider (oidc-provider) running in the test
 * process on 127.0.0.1: an admin configures an OIDC provider and runs Test sign-in; a new person
 * signs in with "Continue with SSO" and lands in the tenant as viewer; an SSO-only admin signs in
 * again with SSO when the session expired mid-edit, and steps up at the IdP.
 */
import { randomUUID } from "node:crypto";
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_TOKEN } from "./constants";
import { SsoPage } from "./pages/sso-page";
import { expect, signInAs, test, uniqueName } from "./sso-fixtures";

const shots = process.env.E2E_SCREENSHOTS;

/** Desktop and phone screenshots when E2E_SCREENSHOTS names a directory. */
async function shoot(page: import("@playwright/test").Page, name: string) {
  if (!shots) return;
  const size = page.viewportSize();
  await page.screenshot({ path: `${shots}/${name}-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/${name}-phone.png` });
  if (size) await page.setViewportSize(size);
}

test("an admin sets up OIDC and tests it; a new person signs in with SSO and lands in the tenant as viewer", async ({
  page,
  browser,
  op,
  people,
  ssoApi,
  ssoPage,
  request,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "SSO sign-in");
  const domain = `corp-${randomUUID().slice(0, 8)}.example`;
  const clientId = `console-${randomUUID().slice(0, 8)}`;
  const clientSecret = `secret-${randomUUID()}`;

  // The admin adds the provider in the console, with the client credentials from the IdP.
  await signInAs(page, admin.email, admin.password);
  await ssoPage.goto(tenant.id);
  const name = uniqueName("Corp OIDC");
  await ssoApi.verifyDomains(tenant.id, [domain]);
  await ssoPage.openCreate();
  await ssoPage.fillProvider({ type: "OpenID Connect", name, url: op.discoveryUrl, domains: domain, enabled: true });
  const dialog = ssoPage.providerDialog.dialog;
  await dialog.getByRole("textbox", { name: "Client ID" }).fill(clientId);
  await dialog.getByLabel("Client secret").fill(clientSecret);
  await ssoPage.providerDialog.submit.click();
  await expect(dialog).toBeHidden();
  await expect(ssoPage.status(name)).toHaveAttribute("data-status", "valid");

  // What to paste at the IdP is on the provider's details, with a copy button; the IdP admin registers it.
  const [provider] = (await ssoApi.listProviders(tenant.id)) as unknown as Array<{
    id: string;
    sp: { redirect_uri: string };
    client_secret_set: boolean;
  }>;
  expect(provider!.client_secret_set).toBe(true);
  const details = await ssoPage.openDetails(name);
  const sp = details.getByRole("region", { name: "Service provider details" });
  await expect(sp).toContainText(provider!.sp.redirect_uri);
  await expect(sp.getByRole("button", { name: "Copy the redirect uri" })).toBeVisible();
  op.addClient({ client_id: clientId, client_secret: clientSecret, redirect_uris: [provider!.sp.redirect_uri] });
  if (shots) await page.screenshot({ path: `${shots}/provider-page.png`, fullPage: true });

  // Test sign-in opens a new tab: through the IdP and back to the result, which shows the profile.
  const sub = `tester-${randomUUID().slice(0, 8)}`;
  op.accounts.set(sub, {
    sub,
    email: `${sub}@${domain}`,
    email_verified: true,
    given_name: "Tess",
    family_name: "Tester",
    groups: ["sso-admins"],
  });
  op.loginAs = sub;
  const [tab] = await Promise.all([page.context().waitForEvent("page"), sp.getByRole("button", { name: "Test sign-in" }).click()]);
  await tab.waitForURL(`**/tenants/${tenant.id}/sso/${provider!.id}/test/**`);
  await expect(tab.getByRole("heading", { name: "Test sign-in" })).toBeVisible();
  await expect(tab.getByText("Sign-in succeeded")).toBeVisible();
  const profile = tab.getByTestId("test-profile");
  await expect(profile).toContainText(sub);
  await expect(profile).toContainText(`${sub}@${domain}`);
  await expect(profile).toContainText("Tess");
  await expect(profile).toContainText("sso-admins");
  await expect(tab.getByTestId("test-raw-attributes")).toContainText('"given_name": "Tess"');
  if (shots) await tab.screenshot({ path: `${shots}/test-result.png`, fullPage: true });
  op.loginAs = null;

  // A new person, in a fresh browser: "Continue with SSO" with their work email.
  const newcomer = `new-${randomUUID().slice(0, 8)}`;
  const email = `${newcomer}@${domain}`;
  op.accounts.set(newcomer, { sub: newcomer, email, email_verified: true, given_name: "Nora", family_name: "Newcomer" });
  const fresh = await browser.newContext();
  const visitor = await fresh.newPage();
  await visitor.goto("/login");
  await visitor.getByRole("button", { name: "Continue with SSO" }).click();
  await visitor.getByLabel("Work email").fill(email);
  if (shots) await visitor.screenshot({ path: `${shots}/login-page.png`, fullPage: true });
  await visitor.getByRole("form", { name: "Sign in with SSO" }).getByRole("button", { name: "Continue with SSO" }).click();
  await visitor.waitForURL(`**/tenants/${tenant.id}`);
  await expect(visitor.getByRole("heading", { level: 1, name: tenant.name })).toBeVisible();

  // They are a viewer of this tenant, created by the sign-in.
  const members = await request.get(`/api/v1/tenants/${tenant.id}/members`, { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
  const list = ((await members.json()) as { results: Array<{ email: string; role: string; name: string | null }> }).results;
  expect(list.find((m) => m.email === email)).toMatchObject({ role: "viewer", name: "Nora Newcomer" });
  await fresh.close();
});

test("an email domain without a provider is refused on the login page with the reason", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  await page.getByLabel("Work email").fill(`someone@nowhere-${randomUUID().slice(0, 6)}.example`);
  await page.getByRole("form", { name: "Sign in with SSO" }).getByRole("button", { name: "Continue with SSO" }).click();
  await page.waitForURL("**/login?sso_error=unknown_domain");
  await expect(page.locator("#login-error")).toHaveText(/No SSO sign-in is set up for that email domain/);
});

test("an SSO-only admin: an expired session signs in again with SSO in a popup and the edit is saved; disabling the provider is confirmed at the IdP, in a dialog that names the action", async ({
  browser,
  op,
  people,
  ssoApi,
}) => {
  const { tenant } = await people.tenantWith("admin", "SSO step-up");
  const { provider: created, domain } = await ssoApi.createOidcProvider(op, tenant.id, "admin");
  const sub = `admin-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  op.accounts.set(sub, { sub, email, email_verified: true, given_name: "Sam", family_name: "Single" });

  // Signed in through SSO only: this person has no password.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  await page.getByLabel("Work email").fill(email);
  await page.getByRole("form", { name: "Sign in with SSO" }).getByRole("button", { name: "Continue with SSO" }).click();
  await page.waitForURL(`**/tenants/${tenant.id}`);
  const ssoPage = new SsoPage(page);
  await ssoPage.goto(tenant.id);

  // The session expires mid-edit: Save asks to sign in again, SSO runs in a popup, the edit is saved.
  const renamed = uniqueName("Corp IdP renamed");
  await page.getByRole("button", { name: `Edit ${created.name}` }).click();
  await ssoPage.providerDialog.name.fill(renamed);
  await context.clearCookies();
  await ssoPage.providerDialog.submit.click();
  const expired = page.getByRole("dialog", { name: "Your session has expired" });
  await expect(expired).toBeVisible();
  await expect(expired.getByLabel("Password")).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "session-expired-sso");
  const [signInPopup] = await Promise.all([page.waitForEvent("popup"), expired.getByRole("button", { name: "Continue with SSO" }).click()]);
  await signInPopup.waitForEvent("close");
  await expect(expired).toBeHidden();
  await expect(ssoPage.providerDialog.dialog).toBeHidden();
  await expect(ssoPage.switchOf(renamed)).toBeVisible();

  // Disabling the provider needs a step-up: the dialog names it and offers the IdP, not a password.
  await ssoPage.switchOf(renamed).click();
  const stepUp = page.getByRole("dialog", { name: `Confirm it's you to disable ${renamed}` });
  await expect(stepUp).toBeVisible();
  await expect(stepUp.getByLabel("Password")).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "step-up-sso");
  const [stepUpPopup] = await Promise.all([
    page.waitForEvent("popup"),
    stepUp.getByRole("button", { name: `Confirm with ${renamed}` }).click(),
  ]);
  await stepUpPopup.waitForEvent("close");
  await expect(stepUp).toBeHidden();
  await expect(ssoPage.switchOf(renamed)).toHaveAttribute("aria-checked", "false");
  await expect(ssoPage.toast.filter({ hasText: `${renamed} is disabled` })).toBeVisible();

  // Where the popup lands when the IdP signed in someone else: it says so (and tells the console).
  const refused = await context.newPage();
  await refused.goto("/auth/popup-done?for=stepup&error=different_user");
  await expect(refused.getByRole("heading", { name: "Not confirmed" })).toBeVisible();
  await expect(refused.getByText("Your identity provider signed in someone else")).toBeVisible();
  await expectNoSeriousA11yViolations(refused);
  await shoot(refused, "popup-done-refused");
  await context.close();
});
