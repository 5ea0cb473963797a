import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_TOKEN } from "./constants";
import { SsoPage } from "./pages/sso-page";
import { SsoApi } from "./sso-fixtures";
import { StepUpDialog } from "./pages/step-up-dialog";
import { expect, signInAs, test, uniqueName } from "./identity";

/** An SSO provider (disabling it needs a step-up), made over the REST API. */
async function createProvider(
  request: import("@playwright/test").APIRequestContext,
  tenantId: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const name = uniqueName("Okta");
  const response = await request.post(`/api/v1/tenants/${tenantId}/sso`, {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
    data: { provider_type: "oidc", name, metadata_url: "https://idp.invalid/.well-known/openid-configuration", ...extra },
  });
  expect(response.status(), await response.text()).toBe(201);
  return name;
}

/** Desktop and phone screenshots, when E2E_SCREENSHOTS names a directory. */
async function shoot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  const size = page.viewportSize();
  await page.screenshot({ path: `${dir}/${name}-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-phone.png` });
  if (size) await page.setViewportSize(size);
}

test("disabling an SSO provider asks for the password (no serious accessibility violations); a wrong one says so, Escape gives up", async ({
  page,
  people,
  request,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Step-up");
  const provider = await createProvider(request, tenant.id);
  const stepUp = new StepUpDialog(page);
  await signInAs(page, admin.email, admin.password);
  await page.goto(`/tenants/${tenant.id}/sso`);

  const toggle = page.getByRole("switch", { name: `Enable ${provider}` });
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(stepUp.dialog).toBeVisible();
  // The dialog names what it confirms, in its accessible name.
  await expect(page.getByRole("dialog", { name: `Confirm it's you to disable ${provider}`, exact: true })).toBeVisible();
  await expect(stepUp.dialog).toContainText("Re-enter your password to continue.");
  await expect(stepUp.password).toBeFocused();
  await expectNoSeriousA11yViolations(page);

  await stepUp.submit("not-my-password");
  await expect(stepUp.error).toHaveText("Incorrect password");
  await expect(stepUp.password).toBeFocused();
  await expectNoSeriousA11yViolations(page);

  await page.keyboard.press("Escape");
  await expect(stepUp.dialog).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
});

test("the right password steps up once for the next ten minutes", async ({ page, people, request }) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Step-up ok");
  const provider = await createProvider(request, tenant.id);
  const stepUp = new StepUpDialog(page);
  await signInAs(page, admin.email, admin.password);
  await page.goto(`/tenants/${tenant.id}/sso`);

  const toggle = page.getByRole("switch", { name: `Enable ${provider}` });
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await stepUp.submit(admin.password);
  await expect(stepUp.dialog).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(stepUp.dialog).toHaveCount(0);
});

test("saving a provider's new domains asks for the password, then saves; a new URL drops the client secret and the form says so", async ({
  page,
  people,
  request,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Step-up edit");
  const provider = await createProvider(request, tenant.id, { client_id: "e2e-client", client_secret: "e2e-client-secret" });
  const ssoPage = new SsoPage(page);
  const form = ssoPage.providerDialog;
  const stepUp = new StepUpDialog(page);
  await signInAs(page, admin.email, admin.password);
  await ssoPage.goto(tenant.id);

  const domain = `step-up-${Date.now().toString(36)}.example`;
  await new SsoApi(request).verifyDomains(tenant.id, [domain]);
  await ssoPage
    .row(provider)
    .getByRole("button", { name: `Edit ${provider}` })
    .click();
  await form.domains.fill(domain);
  await form.submit.click();
  // The server wants a step-up for new domains: the dialog names the save it confirms.
  await expect(page.getByRole("dialog", { name: `Confirm it's you to save changes to ${provider}`, exact: true })).toBeVisible();
  await expect(stepUp.password).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "step-up-provider-edit");
  await stepUp.submit(admin.password);
  await expect(stepUp.dialog).toBeHidden();
  await expect(form.dialog).toBeHidden();
  await expect(ssoPage.toast.filter({ hasText: `${provider} was saved.` })).toBeVisible();
  const details = await ssoPage.openDetails(provider);
  await expect(details).toContainText(domain);

  // Stepped up for ten minutes: a new URL saves at once, and drops the stored client secret.
  await ssoPage
    .row(provider)
    .getByRole("button", { name: `Edit ${provider}` })
    .click();
  const secretHint = form.dialog.locator("#sso-client_secret-hint");
  await expect(secretHint).toHaveText("A secret is stored. Leave empty to keep it; it is never shown again.");
  await form.url("OpenID discovery URL").fill("https://other-idp.invalid/.well-known/openid-configuration");
  await expect(secretHint).toHaveText("Changing the discovery URL drops the stored secret: enter the client secret again.");
  await form.submit.click();
  await expect(form.dialog).toBeHidden();
  await expect(stepUp.dialog).toHaveCount(0);
  await expect(ssoPage.toast.filter({ hasText: "enter the client secret again" })).toBeVisible();
  await expect(details.getByTestId("client-secret-dropped")).toContainText("Enter the client secret again.");
  await ssoPage
    .row(provider)
    .getByRole("button", { name: `Edit ${provider}` })
    .click();
  await expect(secretHint).toContainText("The client secret was dropped when the discovery URL changed: enter the client secret again.");
  await secretHint.scrollIntoViewIfNeeded();
  await shoot(page, "provider-secret-dropped");
});
