/**
 * Setup links in the browser: a tenant admin makes an `sso` link in the console (step-up, the URL
 * shown once); the customer's IT admin, with no account, opens it in a fresh browser, picks Okta,
 * uploads Okta's metadata file, runs Test sign-in against the local SAML IdP and enables the
 * provider; a domain_verification link at phone width; a directory_sync link until the first user
 * arrives. Okta's published metadata (../shared/fixtures/idp/saml-okta.xml, read in place) is
 * uploaded with its SSO endpoint and signing certificate pointed at the test IdP, which signs as
 * Okta's entity ID: the real document's shape, an IdP the test can reach.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { startSamlIdp, type SamlIdp } from "../test/support/saml-idp";
import { idpFixturesDir } from "../test/support/shared-fixtures";
import { OPERATOR_PASSWORD, OPERATOR_TOKEN } from "./constants";
import { StepUpDialog } from "./pages/step-up-dialog";
import { expect, signInAs, test as base } from "./sso-fixtures";

const SHOTS = process.env.E2E_SCREENSHOTS;

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

/** Okta's metadata file, its SSO URLs and certificate swapped for the test IdP's; the IdP then signs as Okta's entity. */
function oktaMetadataFor(idp: SamlIdp): string {
  const okta = readFileSync(path.join(idpFixturesDir(), "saml-okta.xml"), "utf8");
  idp.entityId = /entityID="([^"]+)"/.exec(okta)![1]!;
  const xml = okta
    .replace(/(<ds:X509Certificate>)[\s\S]*?(<\/ds:X509Certificate>)/, `$1${idp.keys[0]!.certificateBase64}$2`)
    .replace(/Location="[^"]+"/g, `Location="${idp.ssoUrl}"`);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "setup-link-")), "okta-metadata.xml");
  writeFileSync(file, xml);
  return file;
}

test("an IT admin with no account sets up Okta through an sso setup link: metadata file, Test sign-in, enable", async ({
  page,
  browser,
  people,
  ssoApi,
  samlIdp,
  request,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Setup link");
  const domain = `corp-${randomUUID().slice(0, 8)}.example`;
  await ssoApi.verifyDomains(tenant.id, [domain]);

  // The tenant admin makes the link on the SSO page: a step-up, then the URL, shown once.
  await signInAs(page, admin.email, admin.password);
  await page.goto(`/tenants/${tenant.id}/sso`);
  const card = page.getByTestId("setup-links-sso");
  await card.getByRole("button", { name: "Create setup link" }).click();
  await new StepUpDialog(page).submit(admin.password);
  const url = (await card.getByTestId("setup-link-url").textContent())!;
  expect(url).toMatch(/\/setup\/[A-Za-z0-9_-]{43}$/);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/setup-link-made-desktop.png`, fullPage: true });

  // The IT admin: another browser, no account.
  const itContext = await browser.newContext();
  const it = await itContext.newPage();
  await it.goto(new URL(url).pathname);
  await it.waitForURL("**/setup");
  await expect(it.getByRole("heading", { level: 1, name: "Set up single sign-on" })).toBeVisible();
  await expect(it.getByText(`${admin.email} asked you to do this.`)).toBeVisible();
  // Dates as the console writes them, with their time zone ("Dec 7, 2026, 10:04:05 PM UTC").
  await expect(it.getByText(/This page works until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M UTC;/)).toBeVisible();

  await it.getByRole("group", { name: "Identity providers" }).getByRole("button", { name: "Okta" }).click();
  const acs = it.getByTestId("setup-acs-url");
  await expect(acs).toHaveText(/\/api\/sso\/saml\/[0-9a-f-]{36}\/acs$/);
  await expect(it.getByTestId("setup-entity-id")).toHaveText(/\/api\/sso\/saml\/[0-9a-f-]{36}\/metadata$/);
  await expect(it.getByText("Audience URI (SP Entity ID)", { exact: true })).toBeVisible();
  if (SHOTS) await it.screenshot({ path: `${SHOTS}/setup-sso-okta-desktop.png`, fullPage: true });

  await it.getByRole("radio", { name: "Upload metadata file" }).check();
  await it.getByLabel("Metadata file", { exact: true }).setInputFiles(oktaMetadataFor(samlIdp));
  // The provider's name, as the tenant's admins will see it: the IdP's unless the IT admin says otherwise.
  const providerName = it.getByRole("textbox", { name: "Provider name" });
  await expect(providerName).toHaveValue("Okta");
  await providerName.fill("Okta (corp)");
  await it.getByRole("button", { name: "Save", exact: true }).click();
  const testStep = it.getByTestId("step-test");
  await expect(testStep).toHaveAttribute("data-state", "current");

  // Test sign-in, in a new tab as in the console: through the IdP and back; the guided page, left
  // where it was, shows what the IdP sent.
  samlIdp.user.nameId = `tess@${domain}`;
  const [tab] = await Promise.all([itContext.waitForEvent("page"), testStep.getByRole("button", { name: "Run Test sign-in" }).click()]);
  await tab.waitForURL("**/setup?step=test");
  await expect(tab.getByText("Test sign-in succeeded")).toBeVisible();
  await tab.close();
  expect(it.url()).toMatch(/\/setup$/);
  await expect(it.getByText("Test sign-in succeeded")).toBeVisible();
  await expect(it.getByTestId("setup-test-profile")).toContainText(`tess@${domain}`);
  await expect(testStep).toHaveAttribute("data-state", "done");

  const enableStep = it.getByTestId("step-enable");
  await expect(enableStep.getByLabel(domain)).toBeChecked();
  await enableStep.getByRole("button", { name: "Enable single sign-on" }).click();
  await expect(it.getByText("Single sign-on is on")).toBeVisible();
  if (SHOTS) await it.screenshot({ path: `${SHOTS}/setup-sso-done-desktop.png`, fullPage: true });
  await it.setViewportSize({ width: 390, height: 844 });
  if (SHOTS) await it.screenshot({ path: `${SHOTS}/setup-sso-done-phone.png`, fullPage: true });

  // The provider is on, for the verified domain, made by the link on the admin's behalf.
  const [provider] = await ssoApi.listProviders(tenant.id);
  expect(provider).toMatchObject({ name: "Okta (corp)", enabled: true, domains: [domain] });
  const audit = await request.get(`/api/v1/tenants/${tenant.id}/audit?event_type=sso_provider.enabled`, {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
  });
  const [enabled] = ((await audit.json()) as { results: Array<{ actor: { id: string }; details: Record<string, unknown> }> }).results;
  expect(enabled!.actor.id).toMatch(/^setup_link:/);
  expect(enabled!.details.setup_link).toMatchObject({ created_by_email: admin.email });
  await itContext.close();
});

test("a domain_verification link shows the TXT record to publish and what Verify found", async ({ browser, people, request, ssoApi }) => {
  const { tenant } = await people.tenantWith("admin", "Domain link");
  // The tenant has a domain an operator vouched for already: it says so, and does not tick the new domain's step.
  const vouched = `vouched-${randomUUID().slice(0, 8)}.example.com`;
  await ssoApi.verifyDomains(tenant.id, [vouched]);
  // Making a link needs a fresh step-up (refused without one: test/integration/setup-links.test.ts).
  const stepUp = await request.post("/api/v1/auth/step-up", {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
    data: { password: OPERATOR_PASSWORD },
  });
  expect(stepUp.status(), await stepUp.text()).toBe(200);
  const link = await request.post(`/api/v1/tenants/${tenant.id}/setup-links`, {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
    data: { intent: "domain_verification" },
  });
  expect(link.status(), await link.text()).toBe(201);
  const { url } = (await link.json()) as { url: string };

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const it = await context.newPage();
  await it.goto(new URL(url).pathname);
  await expect(it.getByRole("heading", { level: 1, name: "Verify your email domain" })).toBeVisible();
  await expect(it.getByRole("region", { name: vouched }).getByTestId("setup-domain-verified")).toHaveText(
    "Verified by the platform operator, without a DNS record: nothing to publish.",
  );
  const domain = `dns-${randomUUID().slice(0, 8)}.example.com`;
  await it.getByLabel("Domain").fill(domain);
  await it.getByRole("button", { name: "Add domain" }).click();
  const record = it.getByRole("region", { name: domain });
  await expect(it.getByTestId("step-domain-record")).toHaveAttribute("data-state", "current");
  await expect(record.getByTestId("setup-txt-name")).toHaveText(`_control-plane-verification.${domain}`);
  await expect(record.getByTestId("setup-txt-value")).toHaveText(/^control-plane-verification=[0-9a-f]{32}$/);
  await record.getByRole("button", { name: "Verify" }).click();
  await expect(record.getByTestId("setup-domain-error")).toBeVisible();
  if (SHOTS) await it.screenshot({ path: `${SHOTS}/setup-domain-phone.png`, fullPage: true });
  await context.close();
});

test("a directory_sync link: the IT admin picks Entra ID, copies the SCIM URL and token, and sees the first user arrive; revoking it rotates the token", async ({
  browser,
  page,
  people,
  request,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Directory link");
  const auth = { Authorization: `Bearer ${OPERATOR_TOKEN}` };
  const stepUp = await request.post("/api/v1/auth/step-up", { headers: auth, data: { password: OPERATOR_PASSWORD } });
  expect(stepUp.status(), await stepUp.text()).toBe(200);
  const link = await request.post(`/api/v1/tenants/${tenant.id}/setup-links`, { headers: auth, data: { intent: "directory_sync" } });
  expect(link.status(), await link.text()).toBe(201);
  const { url } = (await link.json()) as { url: string };

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const it = await context.newPage();
  await it.goto(new URL(url).pathname);
  await expect(it.getByRole("heading", { level: 1, name: "Connect your directory" })).toBeVisible();
  await it.getByRole("group", { name: "Identity providers" }).getByRole("button", { name: "Microsoft Entra ID" }).click();
  await expect(it.getByText("Tenant URL", { exact: true })).toBeVisible();
  const scimUrl = (await it.getByTestId("setup-scim-url").textContent())!;
  const token = (await it.getByTestId("setup-scim-token").textContent())!;
  expect(scimUrl).toMatch(/\/api\/scim\/v2\/[0-9a-f-]{36}$/);
  expect(token).toMatch(/^scim_/);
  await expect(it.getByTestId("setup-directory-status")).toContainText("Waiting for the first request from Microsoft Entra ID");
  if (SHOTS) await it.screenshot({ path: `${SHOTS}/setup-directory-waiting-phone.png`, fullPage: true });

  // Entra ID's first push, as its provisioning service sends it.
  const pushed = await request.post(`${new URL(scimUrl).pathname}/Users`, {
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/scim+json" },
    data: {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
      externalId: "0a1b2c3d",
      userName: `grace-${randomUUID().slice(0, 8)}@corp.example`,
      active: true,
      name: { givenName: "Grace", familyName: "Hopper" },
      emails: [{ primary: true, type: "work", value: "grace@corp.example" }],
    },
  });
  expect(pushed.status(), await pushed.text()).toBe(201);
  await expect(it.getByText("1 user and 0 groups received")).toBeVisible();
  await expect(it.getByTestId("step-directory-status")).toHaveAttribute("data-state", "done");
  if (SHOTS) await it.screenshot({ path: `${SHOTS}/setup-directory-received-phone.png`, fullPage: true });
  await context.close();

  // The tenant admin revokes the link on the Directory Sync page: the dialog says the directory and
  // its token outlive it, and rotating the token in the same step (after a step-up) cuts the IT admin off.
  await signInAs(page, admin.email, admin.password);
  await page.goto(`/tenants/${tenant.id}/directories`);
  const links = page.getByTestId("setup-links-directory_sync");
  await links.getByRole("button", { name: "Revoke" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke this setup link?" });
  await expect(confirm).toContainText("and its SCIM token stay");
  await expect(confirm.getByRole("checkbox", { name: "Also rotate the directory's SCIM token" })).toBeChecked();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/setup-directory-revoke.png`, fullPage: true });
  await confirm.getByRole("button", { name: "Revoke and rotate token" }).click();
  await new StepUpDialog(page).submit(admin.password);
  const rotated = (await page.getByTestId("revoked-link-directory-token").textContent())!.trim();
  expect(rotated).toMatch(/^scim_/);
  await expect(links.getByText("No live links.")).toBeVisible();
  const scimStatus = async (bearer: string) =>
    (await request.get(`${new URL(scimUrl).pathname}/Users`, { headers: { Authorization: `Bearer ${bearer}` } })).status();
  expect(await scimStatus(token)).toBe(401);
  expect(await scimStatus(rotated)).toBe(200);
});
