/**
 * SAML certificates near their end (issue 22, item 5): the tenant's SSO page names each enabled
 * SAML provider whose certificate ends within 30 days (warning; danger within 7), and operators
 * find every tenant's on the Certificates page, linked to the tenant's SSO page. The certificates
 * are real ones the local SAML IdP publishes in its metadata.
 */
import { startSamlIdp, type SamlIdp } from "../test/support/saml-idp";
import { selfSignedCertificate } from "../test/support/x509";
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD } from "./constants";
import { expect, signInAs, test as base, uniqueName } from "./sso-fixtures";

const DAY = 24 * 60 * 60 * 1000;
const shots = process.env.E2E_SCREENSHOTS;

/** A SAML IdP whose one signing certificate ends `days` from now (half days: whole days left read the same on both sides of a minute). */
async function idpEnding(days: number): Promise<SamlIdp> {
  const idp = await startSamlIdp();
  const key = selfSignedCertificate("Expiring IdP", { notAfter: new Date(Date.now() + days * DAY) });
  idp.keys = [key];
  idp.signingKey = key;
  return idp;
}

const test = base.extend<object, { idps: { soon: SamlIdp; later: SamlIdp } }>({
  idps: [
    async ({}, provide) => {
      const [soon, later] = await Promise.all([idpEnding(5.5), idpEnding(20.5)]);
      await provide({ soon, later });
      await Promise.all([soon.close(), later.close()]);
    },
    { scope: "worker" },
  ],
});

test("an admin sees which certificates end soon on the SSO page; an operator lists them across tenants", async ({
  page,
  idps,
  people,
  ssoApi,
  ssoPage,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Certificates");
  const soon = uniqueName("Okta");
  const later = uniqueName("Entra SAML");
  await ssoApi.createProvider(tenant.id, { provider_type: "saml", name: soon, metadata_url: idps.soon.metadataUrl });
  await ssoApi.createProvider(tenant.id, { provider_type: "saml", name: later, metadata_url: idps.later.metadataUrl });

  await signInAs(page, admin.email, admin.password);
  await ssoPage.goto(tenant.id);
  await expect(ssoPage.status(soon)).toHaveAttribute("data-status", "valid");
  await expect(ssoPage.status(later)).toHaveAttribute("data-status", "valid");
  const urgent = page.getByRole("alert").filter({ hasText: `The signing certificate of ${soon} expires on` });
  await expect(urgent).toContainText("in 5 days");
  await expect(urgent.getByRole("button", { name: "Refresh metadata" })).toBeVisible();
  const warning = page.getByRole("status").filter({ hasText: `The signing certificate of ${later} expires on` });
  await expect(warning).toContainText("in 20 days");
  await expect(warning).toContainText("Ask your identity provider's admin for a new signing certificate");
  await expectNoSeriousA11yViolations(page);
  if (shots) {
    await page.screenshot({ path: `${shots}/sso-certificate-banner.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/sso-certificate-banner-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
  }

  await page.context().clearCookies();
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  await page.getByRole("complementary").getByRole("link", { name: "Certificates" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Expiring certificates" })).toBeVisible();
  const rows = page.getByTestId("expiring-certificate-row");
  await expect(rows.filter({ hasText: soon })).toContainText("In 5 days");
  await expect(rows.filter({ hasText: later })).toContainText(tenant.name);
  await page.getByRole("combobox", { name: "Show certificates ending" }).selectOption("7");
  await expect(rows.filter({ hasText: later })).toHaveCount(0);
  await expect(rows.filter({ hasText: soon })).toHaveCount(1);
  await page.getByRole("combobox", { name: "Show certificates ending" }).selectOption("30");
  await expect(rows.filter({ hasText: later })).toHaveCount(1);
  await expectNoSeriousA11yViolations(page);
  if (shots) {
    await page.screenshot({ path: `${shots}/certificates.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/certificates-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  await rows.filter({ hasText: soon }).getByRole("link", { name: soon }).click();
  await page.waitForURL(`**/tenants/${tenant.id}/sso`);
  await expect(page.getByRole("alert").filter({ hasText: soon })).toBeVisible();
});
