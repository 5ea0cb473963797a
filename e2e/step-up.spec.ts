import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_TOKEN } from "./constants";
import { StepUpDialog } from "./pages/step-up-dialog";
import { expect, signInAs, test, uniqueName } from "./identity";

/** An SSO provider (disabling it needs a step-up), made over the REST API. */
async function createProvider(request: import("@playwright/test").APIRequestContext, tenantId: string): Promise<string> {
  const name = uniqueName("Okta");
  const response = await request.post(`/api/v1/tenants/${tenantId}/sso`, {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
    data: { provider_type: "oidc", name, metadata_url: "https://idp.invalid/.well-known/openid-configuration" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return name;
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
