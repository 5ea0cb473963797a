/**
 * SAML sign-in in the browser, against the SAML IdP of the tests (test/support/saml-idp.ts: real
 * signed Responses, auto-posted to our ACS by its page) running in the test process on 127.0.0.1:
 * an admin configures a SAML provider and runs Test sign-in; a new person signs in with
 * "Continue with SSO" and lands in the tenant as viewer.
 */
import { randomUUID } from "node:crypto";
import { startSamlIdp, type SamlIdp } from "../test/support/saml-idp";
import { OPERATOR_TOKEN } from "./constants";
import { expect, signInAs, test as base, uniqueName } from "./sso-fixtures";

const test = base.extend<object, { samlIdp: SamlIdp }>({
  samlIdp: [
    async ({}, provide) => {
      const idp = await startSamlIdp();
      await provide(idp);
      await idp.close();
    },
    { scope: "worker" },
  ],
});

test("an admin sets up SAML and tests it; a new person signs in with SSO and lands in the tenant as viewer", async ({
  page,
  browser,
  samlIdp,
  people,
  ssoApi,
  ssoPage,
  request,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "SAML sign-in");
  const domain = `corp-${randomUUID().slice(0, 8)}.example`;

  await signInAs(page, admin.email, admin.password);
  await ssoPage.goto(tenant.id);
  const name = uniqueName("Corp SAML");
  await ssoApi.verifyDomains(tenant.id, [domain]);
  await ssoPage.create({ type: "SAML 2.0", name, url: samlIdp.metadataUrl, domains: domain, enabled: true });
  await expect(ssoPage.status(name)).toHaveAttribute("data-status", "valid");

  // What to paste at the IdP: the ACS URL and entity ID, on the provider's details.
  const [provider] = (await ssoApi.listProviders(tenant.id)) as unknown as Array<{
    id: string;
    sp: { acs_url: string; entity_id: string };
  }>;
  const details = await ssoPage.openDetails(name);
  const sp = details.getByRole("region", { name: "Service provider details" });
  await expect(sp).toContainText(provider!.sp.acs_url);
  await expect(sp).toContainText(provider!.sp.entity_id);

  // Test sign-in: a new tab through the IdP (which signs the user in and posts back) to the result.
  samlIdp.user.nameId = `tess@${domain}`;
  const [tab] = await Promise.all([page.context().waitForEvent("page"), sp.getByRole("button", { name: "Test sign-in" }).click()]);
  await tab.waitForURL(`**/tenants/${tenant.id}/sso/${provider!.id}/test/**`);
  await expect(tab.getByText("Sign-in succeeded")).toBeVisible();
  const profile = tab.getByTestId("test-profile");
  await expect(profile).toContainText(`tess@${domain}`);
  await expect(profile).toContainText("Alice");
  await expect(profile).toContainText("engineering");
  await expect(tab.getByTestId("test-raw-attributes")).toContainText("identity/claims/givenname");

  // A new person, in a fresh browser: "Continue with SSO" with their work email.
  const email = `nora-${randomUUID().slice(0, 8)}@${domain}`;
  samlIdp.user.nameId = email;
  const fresh = await browser.newContext();
  const visitor = await fresh.newPage();
  await visitor.goto("/login");
  await visitor.getByRole("button", { name: "Continue with SSO" }).click();
  await visitor.getByLabel("Work email").fill(email);
  await visitor.getByRole("form", { name: "Sign in with SSO" }).getByRole("button", { name: "Continue with SSO" }).click();
  await visitor.waitForURL(`**/tenants/${tenant.id}`);
  await expect(visitor.getByRole("heading", { level: 1, name: tenant.name })).toBeVisible();

  const members = await request.get(`/api/v1/tenants/${tenant.id}/members`, { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
  const list = ((await members.json()) as { results: Array<{ email: string; role: string; name: string | null }> }).results;
  expect(list.find((m) => m.email === email)).toMatchObject({ role: "viewer", name: "Alice Liddell" });
  await fresh.close();
});
