/**
 * Directory Sync and SSO together, as a customer runs them: an admin creates a directory in the
 * console and maps the IdP's "Engineering" group to admin; the IdP's SCIM client pushes a person
 * into that group; the person signs in through SSO (a real OpenID Provider, oidc-provider) as
 * admin, not as the provider's default viewer; the IdP deactivates them and their open console
 * session ends at once, and SSO refuses them from then on.
 */
import { randomUUID } from "node:crypto";
import { ScimClient } from "./directories-fixtures";
import { LoginPage } from "./pages/login-page";
import { DirectoriesPage } from "./pages/directories-page";
import { expect, signInAs, test as base } from "./sso-fixtures";

const test = base.extend<{ directoriesPage: DirectoriesPage }>({
  directoriesPage: async ({ page }, provide) => provide(new DirectoriesPage(page)),
});

test("a person the directory puts in a mapped group signs in through SSO with the mapped role; deactivating them signs them out", async ({
  page,
  browser,
  request,
  op,
  people,
  ssoApi,
  directoriesPage: directories,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Directory SSO");
  // The tenant's SSO: people it lets in on their own join as viewers.
  const { domain } = await ssoApi.createOidcProvider(op, tenant.id, "viewer");

  // The admin creates a directory in the console and maps Engineering to admin.
  await signInAs(page, admin.email, admin.password);
  await directories.goto(tenant.id);
  await directories.addFirst.click();
  await directories.create("Okta", "Okta");
  await directories.stepUp.submit(admin.password);
  const baseUrl = (await directories.baseUrl.textContent())!.trim();
  const token = (await directories.token.textContent())!.trim();
  await directories.storedToken.click();
  await expect(directories.heading).toHaveText("Okta");
  await page.getByRole("button", { name: "Add mapping" }).click();
  await page.getByLabel("Group of row 1", { exact: true }).fill("Engineering");
  await page.getByRole("combobox", { name: "Role of row 1" }).selectOption("admin");
  await page.getByRole("button", { name: "Save role mappings" }).click();
  await expect(directories.toast.filter({ hasText: "role mappings" })).toBeVisible();

  // The IdP pushes a person (their address capitalised, as IdPs keep it), then the Engineering group with them in it.
  const sub = randomUUID().slice(0, 8);
  const asTheIdpWritesIt = `Erin.Engineer-${sub}@${domain}`;
  const email = asTheIdpWritesIt.toLowerCase();
  const scim = new ScimClient(request, baseUrl, token);
  const scimUserId = await scim.created("/Users", {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    userName: asTheIdpWritesIt,
    name: { givenName: "Erin", familyName: "Engineer" },
    emails: [{ value: asTheIdpWritesIt, type: "work", primary: true }],
    active: true,
  });
  await scim.created("/Groups", {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
    displayName: "Engineering",
    members: [{ value: scimUserId }],
  });

  // They sign in through SSO in their own browser and land in the tenant as admin.
  op.accounts.set(sub, { sub, email: asTheIdpWritesIt, email_verified: true, given_name: "Erin", family_name: "Engineer" });
  const context = await browser.newContext();
  const visitor = await context.newPage();
  const login = new LoginPage(visitor);
  await login.goto();
  await login.continueWithSso(asTheIdpWritesIt);
  await expect(visitor).toHaveURL((url) => url.pathname === `/tenants/${tenant.id}`);
  await expect(visitor.getByRole("heading", { level: 1, name: tenant.name })).toBeVisible();
  await expect(visitor.getByText("You can change this tenant.")).toBeVisible();
  if (process.env.E2E_SCREENSHOTS) await visitor.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/directory-sso-landing.png` });
  expect((await people.listMembers(tenant.id)).find((m) => m.email === email)).toMatchObject({ role: "admin", has_password: false });

  // The IdP deactivates them: the open session is over at their next step, and SSO refuses them.
  const deactivated = await scim.send("PATCH", `/Users/${scimUserId}`, {
    schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    Operations: [{ op: "replace", path: "active", value: false }],
  });
  expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
  await visitor.reload();
  await expect(visitor).toHaveURL((url) => url.pathname === "/login");
  await login.waitUntilReady();
  await login.continueWithSso(asTheIdpWritesIt);
  await expect(visitor).toHaveURL((url) => url.searchParams.get("sso_error") === "deprovisioned");
  await expect(login.error).toHaveText("Your organisation's directory has deactivated your account. Ask your administrator.");
  expect((await people.listMembers(tenant.id)).map((m) => m.email)).not.toContain(email);
  await context.close();
});
