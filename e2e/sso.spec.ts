import { X509Certificate } from "node:crypto";
import path from "node:path";
import { SIGNING_CERT_PEM } from "../test/support/idp-server";
import { idpFixturesDir } from "../test/support/shared-fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { expect, signInAs, test, uniqueName } from "./sso-fixtures";

/** The date the page shows for the test IdP's signing certificate (e.g. "Nov 18, 2036"). */
const CERTIFICATE_EXPIRY = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" }).format(
  new Date(new X509Certificate(SIGNING_CERT_PEM).validTo),
);

test("an admin adds a SAML provider, disables it through the step-up dialog, and deletes it", async ({
  page,
  idp,
  people,
  ssoApi,
  ssoPage,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "SSO");
  // A laptop's window: the dialog's buttons stay in view however long its form.
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, admin.email, admin.password);
  await ssoPage.goto(tenant.id);
  await expect(ssoPage.emptyState).toBeVisible();

  const name = uniqueName("Okta");
  // An enabled provider routes only verified domains of its tenant (the Domains page).
  await ssoApi.verifyDomains(tenant.id, ["acme.example", "acme.test"]);
  await ssoPage.openCreate();
  await expect(ssoPage.providerDialog.submit).toBeInViewport({ ratio: 1 });
  // A new provider starts off, saying why and where the domain is verified.
  const enabled = ssoPage.providerDialog.enabled;
  await expect(enabled).not.toBeChecked();
  await expect(ssoPage.providerDialog.dialog.locator("#sso-enabled-description")).toContainText(
    "an enabled provider takes only verified domains",
  );
  await expect(ssoPage.providerDialog.dialog.getByRole("link", { name: "Domains page" })).toHaveAttribute(
    "href",
    `/tenants/${tenant.id}/domains`,
  );
  await ssoPage.fillProvider({ type: "SAML 2.0", name, url: `${idp.url}/saml.xml`, domains: "acme.example, acme.test", enabled: true });
  await expect(ssoPage.providerDialog.submit).toBeInViewport({ ratio: 1 });
  // IdP-initiated sign-in is off unless asked for; asked for, the details warn about it.
  const idpInitiated = ssoPage.providerDialog.dialog.getByLabel("Accept IdP-initiated sign-in (SAML)");
  await expect(idpInitiated).not.toBeChecked();
  await idpInitiated.check();
  await ssoPage.providerDialog.submit.click();
  await expect(ssoPage.providerDialog.dialog).toBeHidden();
  await expect(ssoPage.toast.filter({ hasText: `${name} was added` })).toBeVisible();
  await expect(ssoPage.status(name)).toHaveAttribute("data-status", "valid");
  await expect(ssoPage.certificate(name)).toContainText(CERTIFICATE_EXPIRY);
  await expect(ssoPage.switchOf(name)).toBeChecked();

  const details = await ssoPage.openDetails(name);
  await expect(details).toContainText("https://idp.example.test/saml");
  await expect(details).toContainText("https://idp.example.test/saml/redirect");
  await expect(details).toContainText("acme.example, acme.test");
  // Our entity ID (to give the IdP) and the IdP's are labelled apart.
  await expect(details.getByRole("term")).toContainText(["Entity ID", "IdP entity ID"]);
  await expect(details.getByRole("term").filter({ hasText: /^Entity ID$/ })).toHaveCount(1);
  await expect(details.getByTestId("idp-initiated-warning")).toContainText("IdP-initiated sign-in is on");
  expect((await ssoApi.listProviders(tenant.id))[0]).toMatchObject({ allow_idp_initiated: true });

  // A wrong password: the dialog says so, and cancelling leaves the provider enabled.
  await ssoPage.switchOf(name).click();
  await expect(ssoPage.stepUp.dialog).toBeVisible();
  await ssoPage.stepUp.submit("not-the-password");
  await expect(ssoPage.stepUp.error).toHaveText("Incorrect password");
  await ssoPage.stepUp.cancel.click();
  await expect(ssoPage.stepUp.dialog).toBeHidden();
  await expect(ssoPage.switchOf(name)).toBeChecked();
  expect((await ssoApi.listProviders(tenant.id))[0]!.enabled).toBe(true);

  // The right password: disabled, and it stays so.
  await ssoPage.switchOf(name).click();
  await ssoPage.stepUp.submit(admin.password);
  await expect(ssoPage.stepUp.dialog).toBeHidden();
  await expect(ssoPage.switchOf(name)).not.toBeChecked();
  await expect(ssoPage.toast.filter({ hasText: `${name} is disabled` })).toBeVisible();
  await page.reload();
  await ssoPage.waitUntilLoaded();
  await expect(ssoPage.switchOf(name)).not.toBeChecked();
  expect((await ssoApi.listProviders(tenant.id))[0]!.enabled).toBe(false);

  // Enabling needs no step-up.
  await ssoPage.switchOf(name).click();
  await expect(ssoPage.switchOf(name)).toBeChecked();
  await expect(ssoPage.stepUp.dialog).toBeHidden();

  await ssoPage
    .row(name)
    .getByRole("button", { name: `Refresh metadata of ${name}` })
    .click();
  await expect(ssoPage.toast.filter({ hasText: `The metadata of ${name} is valid` })).toBeVisible();

  // Deleting asks first, naming the provider; the step-up above is still fresh.
  await ssoPage
    .row(name)
    .getByRole("button", { name: `Delete ${name}` })
    .click();
  await expect(ssoPage.confirmDialog).toHaveAccessibleName(`Delete ${name}?`);
  await ssoPage.confirmDialog.getByRole("button", { name: "Delete provider" }).click();
  await expect(ssoPage.confirmDialog).toBeHidden();
  await expect(ssoPage.emptyState).toBeVisible();
  expect(await ssoApi.listProviders(tenant.id)).toEqual([]);
});

test("the URL field follows the type, and bad values are explained inline", async ({ page, idp, people, ssoApi, ssoPage }) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "SSO");
  await ssoApi.createProvider(tenant.id, {
    provider_type: "saml",
    name: "Existing",
    metadata_url: `${idp.url}/saml.xml`,
    domains: ["taken.example"],
  });
  // On a phone: the dialog's buttons stay in view too.
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, admin.email, admin.password);
  await ssoPage.goto(tenant.id);
  await ssoPage.openCreate();
  const dialog = ssoPage.providerDialog;
  await expect(dialog.submit).toBeInViewport({ ratio: 1 });

  await expect(dialog.url("SAML metadata URL")).toBeVisible();
  await dialog.type.selectOption({ label: "Google Workspace" });
  await expect(dialog.url("OpenID discovery URL")).toHaveAttribute(
    "placeholder",
    "https://accounts.google.com/.well-known/openid-configuration",
  );
  await dialog.type.selectOption({ label: "Microsoft Entra ID" });
  await expect(dialog.url("OpenID discovery URL")).toHaveAttribute("placeholder", /login\.microsoftonline\.com\/\{tenant\}\/v2\.0/);
  await dialog.type.selectOption({ label: "SAML 2.0" });

  // Caught before sending.
  await dialog.submit.click();
  await expect(dialog.error("name")).toHaveText("Name must not be empty");
  await expect(dialog.error("metadata_url")).toHaveText("SAML metadata URL must not be empty");
  await expect(dialog.name).toBeFocused();

  // Refused by the server: a malformed domain (path domains.1), then a domain another provider
  // has (409 whose errors name domains.1 too).
  await ssoApi.verifyDomains(tenant.id, ["ok.example"]);
  await ssoPage.fillProvider({ type: "SAML 2.0", name: "Second", url: `${idp.url}/saml.xml`, domains: "ok.example not_a_domain" });
  await expect(dialog.chips()).toHaveText(["ok.example"]);
  await dialog.submit.click();
  await expect(dialog.chips()).toHaveText(["ok.example", "not_a_domain"]);
  await expect(dialog.error("domains")).toHaveText("not_a_domain must be a domain name such as example.com");
  await dialog.dialog.getByRole("button", { name: "Remove not_a_domain" }).click();
  await dialog.domains.fill("taken.example ");
  await dialog.submit.click();
  await expect(dialog.error("domains")).toHaveText("taken.example is already routed to another SSO provider");
  await expect(dialog.chips()).toHaveText(["ok.example", "taken.example"]);
  expect(await ssoApi.listProviders(tenant.id)).toHaveLength(1);
});

/** Real IdPs' metadata files, read in place (never copied into the project). */
const IDP_FIXTURES = idpFixturesDir();

test("an admin adds a Google Workspace SAML provider by uploading its metadata file; a bad file is explained under the field", async ({
  page,
  people,
  ssoPage,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "SSO");
  await signInAs(page, admin.email, admin.password);
  await ssoPage.goto(tenant.id);
  await ssoPage.openCreate();
  const dialog = ssoPage.providerDialog;
  const name = uniqueName("Google");
  await dialog.type.selectOption({ label: "Google Workspace" });
  await dialog.name.fill(name);
  await dialog.dialog.getByRole("radio", { name: "Upload metadata file" }).check();
  const file = dialog.dialog.getByLabel("Metadata file", { exact: true });

  // An SP's metadata is not an IdP's: the server's 400 shows under the file field.
  await file.setInputFiles(path.join(IDP_FIXTURES, "reject-sp-metadata.xml"));
  await expect(dialog.dialog.getByTestId("metadata-file")).toContainText("reject-sp-metadata.xml");
  await dialog.submit.click();
  await expect(dialog.error("metadata_xml")).toContainText("Metadata file is not usable SAML identity-provider metadata");

  await file.setInputFiles(path.join(IDP_FIXTURES, "saml-google-workspace.xml"));
  await expect(dialog.error("metadata_xml")).toHaveCount(0);
  await expect(dialog.dialog.getByTestId("metadata-file")).toHaveText("saml-google-workspace.xml · 3.6 KB");
  await dialog.submit.click();
  await expect(dialog.dialog).toBeHidden();
  await expect(ssoPage.toast.filter({ hasText: `${name} was added from its metadata file` })).toBeVisible();
  await expect(ssoPage.status(name)).toHaveAttribute("data-status", "valid");
  const details = await ssoPage.openDetails(name);
  await expect(details.getByTestId("metadata-source")).toHaveText("From an uploaded file");
  await expect(details).toContainText("https://accounts.google.com/o/saml2?idpid=C023zw3x8");

  // Editing says where the metadata came from and offers to replace the file.
  await ssoPage
    .row(name)
    .getByRole("button", { name: `Edit ${name}` })
    .click();
  await expect(dialog.dialog.getByRole("radio", { name: "Upload metadata file" })).toBeChecked();
  await expect(dialog.dialog.getByTestId("metadata-from-file")).toContainText(
    "From an uploaded file (entity ID https://accounts.google.com/o/saml2?idpid=C023zw3x8)",
  );
  await expect(dialog.dialog.getByLabel("Replace with another file")).toBeVisible();
});

test("a viewer sees the providers read-only", async ({ page, idp, people, ssoApi, ssoPage }) => {
  const { tenant, person: viewer } = await people.tenantWith("viewer", "SSO");
  const provider = await ssoApi.createProvider(tenant.id, { provider_type: "saml", name: "Read me", metadata_url: `${idp.url}/saml.xml` });
  await signInAs(page, viewer.email, viewer.password);
  await ssoPage.goto(tenant.id);

  await expect(ssoPage.readOnly).toBeVisible();
  await expect(ssoPage.status(provider.name)).toHaveAttribute("data-status", "valid");
  await expect(ssoPage.switchOf(provider.name)).toBeDisabled();
  await expect(ssoPage.addButton).toHaveCount(0);
  for (const action of ["Edit", "Delete", "Refresh metadata of"]) {
    await expect(page.getByRole("button", { name: `${action} ${provider.name}` })).toHaveCount(0);
  }
  await expectNoSeriousA11yViolations(page);

  // The Overview's next steps: the viewer sees each state (SSO done), but no action they cannot take.
  await page.goto(`/tenants/${tenant.id}`);
  const steps = page.getByTestId("next-steps");
  await expect(steps.getByTestId("next-step-sso")).toHaveAttribute("data-done", "true");
  await expect(steps.getByTestId("next-step-sso")).toContainText(`SSO: on through ${provider.name}`);
  await expect(steps.getByTestId("next-step-domains")).toContainText("No verified domain");
  await expect(steps.getByRole("link", { name: "Members" })).toHaveAttribute("href", `/tenants/${tenant.id}/members`);
  for (const action of ["Invite your team", "Invite members", "Verify a domain", "Connect a directory", "Add a webhook"]) {
    await expect(steps.getByRole("link", { name: action })).toHaveCount(0);
  }
});

test("the SSO page and its dialogs have no serious accessibility violations", async ({ page, idp, people, ssoApi, ssoPage }) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "SSO");
  await signInAs(page, admin.email, admin.password);
  await ssoPage.goto(tenant.id);
  await expect(ssoPage.emptyState).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await ssoPage.openCreate();
  await expectNoSeriousA11yViolations(page);
  await ssoPage.providerDialog.dialog.getByRole("button", { name: "Cancel" }).click();

  const provider = await ssoApi.createProvider(tenant.id, {
    provider_type: "saml",
    name: "Axe SAML",
    metadata_url: `${idp.url}/saml.xml`,
    domains: ["axe.example"],
  });
  await ssoApi.createProvider(tenant.id, {
    provider_type: "oidc",
    name: "Axe OIDC",
    metadata_url: `${idp.url}/.well-known/openid-configuration`,
  });
  await page.reload();
  await ssoPage.waitUntilLoaded();
  await expect(ssoPage.status(provider.name)).toHaveAttribute("data-status", "valid");
  await ssoPage.openDetails(provider.name);
  await expectNoSeriousA11yViolations(page);

  await ssoPage.switchOf(provider.name).click();
  await expect(ssoPage.stepUp.dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await ssoPage.stepUp.cancel.click();
  await expect(ssoPage.switchOf(provider.name)).toBeChecked();
});
