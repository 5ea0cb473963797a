/**
 * The Directory Sync tab: an admin creates a directory (after a step-up) and connects an IdP (URL
 * and token shown once), maps groups to roles, disables, rotates and deletes it; people pushed by a
 * SCIM client show up as users (linked to a console account only in the tenant's verified domain),
 * groups and sync activity, which a viewer reads without controls; the Members page shows the
 * membership the directory made as managed by it.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_PASSWORD, OPERATOR_TOKEN } from "./constants";
import { ScimClient } from "./directories-fixtures";
import { expect, PASSWORD, signInAs, test as base, uniqueEmail, uniqueName } from "./identity";
import { DirectoriesPage } from "./pages/directories-page";

interface ApiDirectory {
  id: string;
  name: string;
  enabled: boolean;
  scim_base_url: string;
  token: string;
  token_hint: string;
  default_role: "admin" | "viewer" | null;
  role_mappings: Array<{ group: string; role: "admin" | "viewer" }>;
}

/** Directories over the REST API, as the bootstrap operator. */
class DirectoriesApi {
  constructor(private readonly request: APIRequestContext) {}

  private headers = { Authorization: `Bearer ${OPERATOR_TOKEN}` };

  /** Creating a directory needs a fresh step-up: the operator's token confirms its password first. */
  async create(tenantId: string, body: Record<string, unknown>): Promise<ApiDirectory> {
    const stepUp = await this.request.post("/api/v1/auth/step-up", { headers: this.headers, data: { password: OPERATOR_PASSWORD } });
    expect(stepUp.status(), await stepUp.text()).toBe(200);
    const response = await this.request.post(`/api/v1/tenants/${tenantId}/directories`, { headers: this.headers, data: body });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as ApiDirectory;
  }

  /** Adds the domain to the tenant and verifies it (an operator's override): the tenant owns its people. */
  async verifiedDomain(tenantId: string, domain: string): Promise<void> {
    const added = await this.request.post(`/api/v1/tenants/${tenantId}/domains`, { headers: this.headers, data: { domain } });
    expect(added.status(), await added.text()).toBe(201);
    const id = ((await added.json()) as { id: string }).id;
    const verified = await this.request.post(`/api/v1/tenants/${tenantId}/domains/${id}/verify`, {
      headers: this.headers,
      data: { override: true, reason: "e2e" },
    });
    expect(verified.status(), await verified.text()).toBe(200);
  }

  async list(tenantId: string): Promise<ApiDirectory[]> {
    const response = await this.request.get(`/api/v1/tenants/${tenantId}/directories`, { headers: this.headers });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { results: ApiDirectory[] }).results;
  }

  async get(tenantId: string, id: string): Promise<ApiDirectory> {
    const response = await this.request.get(`/api/v1/tenants/${tenantId}/directories/${id}`, { headers: this.headers });
    expect(response.status(), await response.text()).toBe(200);
    return (await response.json()) as ApiDirectory;
  }
}

const test = base.extend<{ directoriesApi: DirectoriesApi; directoriesPage: DirectoriesPage }>({
  directoriesApi: async ({ request }, provide) => provide(new DirectoriesApi(request)),
  directoriesPage: async ({ page }, provide) => provide(new DirectoriesPage(page)),
});

/** Desktop and phone screenshots, light then dark, when E2E_SCREENSHOTS names a directory. */
async function shoot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  const size = page.viewportSize();
  await page.screenshot({ path: `${dir}/directories-${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/directories-${name}-phone.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${dir}/directories-${name}-phone-dark.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
  await page.screenshot({ path: `${dir}/directories-${name}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
}

test("an admin creates a directory, copies its SCIM URL and token once, maps groups to roles, disables, rotates and deletes it", async ({
  page,
  people,
  directoriesApi,
  directoriesPage: directories,
}) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const { tenant, person: admin } = await people.tenantWith("admin", "Directories");
  await signInAs(page, admin.email, admin.password);
  await directories.goto(tenant.id);
  await expect(directories.emptyState).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Tenant sections" }).getByRole("link", { name: "Directory Sync" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "empty");

  // Created: the URL and the token once, with Entra's own names for them and its steps.
  const name = uniqueName("Entra employees");
  await directories.addFirst.click();
  await directories.create(name, "Microsoft Entra ID");
  // Its token writes people into the tenant: creating one asks for the password first.
  await directories.stepUp.submit(PASSWORD);
  await expect(directories.connectDialog).toHaveAccessibleName("Directory created: connect Microsoft Entra ID");
  await expect(directories.connectDialog).toContainText("You won't see this token again.");
  await expect(directories.setupSteps).toHaveAttribute("data-provider", "entra_id");
  await expect(directories.setupSteps).toContainText("Provisioning Mode to Automatic");
  await expect(directories.connectDialog.getByText("Tenant URL", { exact: true })).toBeVisible();
  await expect(directories.connectDialog.getByText("Secret Token", { exact: true })).toBeVisible();
  const baseUrl = (await directories.baseUrl.textContent())!.trim();
  const token = (await directories.token.textContent())!.trim();
  expect(baseUrl).toMatch(/\/api\/scim\/v2\/[0-9a-f-]{36}$/);
  expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
  await expect(directories.storedToken).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "created");
  await directories.connectDialog.getByRole("button", { name: "Copy the Secret Token" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await directories.storedToken.click();

  // Closing it leads to the directory's page; the token is gone, its hint stays.
  await expect(directories.heading).toHaveText(name);
  await expect(page.getByTestId("scim-token")).toHaveCount(0);
  await expect(page.getByText(`••••${token.slice(-4)}`)).toBeVisible();
  await expect(page.getByTestId("scim-base-url")).toHaveText(baseUrl);
  await expect(page.getByText("No requests yet").first()).toBeVisible();
  const [created] = await directoriesApi.list(tenant.id);
  expect(created).toMatchObject({ name, enabled: true, token_hint: token.slice(-4), role_mappings: [], default_role: null });

  // Role mappings: two rows, the second moved first, and a default role.
  await page.getByRole("button", { name: "Add mapping" }).click();
  await page.getByLabel("Group of row 1", { exact: true }).fill("Engineering");
  await page.getByRole("button", { name: "Add mapping" }).click();
  await page.getByLabel("Group of row 2", { exact: true }).fill("IT Admins");
  await page.getByRole("combobox", { name: "Role of row 2" }).selectOption("admin");
  await page.getByRole("button", { name: "Move row 2 up" }).click();
  await expect(page.getByLabel("Group of row 1", { exact: true })).toHaveValue("IT Admins");
  await page.getByRole("combobox", { name: "Everyone in no mapped group" }).selectOption({ label: "Viewer" });
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "overview");
  await page.getByRole("button", { name: "Save role mappings" }).click();
  await expect(directories.toast.filter({ hasText: "role mappings" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Save role mappings" })).toBeDisabled();
  expect(await directoriesApi.get(tenant.id, created!.id)).toMatchObject({
    role_mappings: [
      { group: "IT Admins", role: "admin" },
      { group: "Engineering", role: "viewer" },
    ],
    default_role: "viewer",
  });

  // Disabled: the IdP is refused until it is enabled again.
  const status = page.getByRole("switch", { name: `Enable ${name}` });
  await status.click();
  await expect(page.getByTestId("directory-status")).toHaveAttribute("data-enabled", "false");
  expect((await directoriesApi.get(tenant.id, created!.id)).enabled).toBe(false);
  await status.click();
  await expect(page.getByTestId("directory-status")).toHaveAttribute("data-enabled", "true");

  // Rotating asks (the step-up made at creation is still fresh), then shows the new token once.
  await page.getByRole("button", { name: "Rotate token" }).click();
  await expect(directories.confirmDialog).toHaveAccessibleName("Rotate the SCIM token?");
  await directories.confirmDialog.getByRole("button", { name: "Rotate token" }).click();
  await expect(directories.connectDialog).toHaveAccessibleName("Copy the new SCIM token");
  const rotated = (await directories.token.textContent())!.trim();
  expect(rotated).toMatch(/^scim_/);
  expect(rotated).not.toBe(token);
  await directories.storedToken.click();
  await expect(page.getByText(`••••${rotated.slice(-4)}`)).toBeVisible();

  // Deleting asks first (the step-up above is still fresh), then back to the empty list.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(directories.confirmDialog).toHaveAccessibleName("Delete this directory?");
  await expect(directories.confirmDialog).toContainText("Its users are deprovisioned first");
  await directories.confirmDialog.getByRole("button", { name: "Delete directory" }).click();
  await expect(directories.emptyState).toBeVisible();
  expect(await directoriesApi.list(tenant.id)).toEqual([]);
});

test("people a SCIM client pushes show up as users, groups and sync activity; a viewer reads them without controls", async ({
  page,
  browser,
  request,
  people,
  directoriesApi,
  directoriesPage: directories,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Directory data");
  const directory = await directoriesApi.create(tenant.id, {
    name: "Okta",
    provider: "okta",
    role_mappings: [{ group: "Engineering", role: "viewer" }],
  });
  const scim = new ScimClient(request, directory.scim_base_url, directory.token);

  const enterprise = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
  // Ada is in the tenant's verified domain: the directory links her account (and her mapping makes
  // her a viewer). Bob is not: he stays a directory user, with no account here.
  const domain = `${uniqueName("corp").replace(/\s+/g, "-").toLowerCase()}.example`;
  await directoriesApi.verifiedDomain(tenant.id, domain);
  const ada = uniqueEmail("ada").replace(/@.*$/, `@${domain}`);
  const bob = uniqueEmail("bob");
  const adaId = await scim.created("/Users", {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User", enterprise],
    userName: ada,
    externalId: "00u-ada",
    name: { givenName: "Ada", familyName: "Lovelace" },
    emails: [{ value: ada, type: "work", primary: true }],
    active: true,
    [enterprise]: { department: "Analytical Engines" },
  });
  const bobId = await scim.created("/Users", {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    userName: bob,
    name: { givenName: "Bob", familyName: "Babbage" },
    emails: [{ value: bob, type: "work", primary: true }],
    active: true,
  });
  await scim.created("/Groups", {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
    displayName: "Engineering",
    externalId: "00g-eng",
    members: [{ value: adaId }],
  });
  const deactivated = await scim.send("PATCH", `/Users/${bobId}`, {
    schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    Operations: [{ op: "Replace", value: { active: false } }],
  });
  expect(deactivated.status).toBe(200);
  // A request the IdP gets wrong: the sync activity shows it first.
  const duplicate = await scim.send("POST", "/Users", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: ada });
  expect(duplicate.status).toBe(409);

  await signInAs(page, admin.email, admin.password);
  await page.goto(`/tenants/${tenant.id}/directories/${directory.id}?tab=users`);
  await expect(directories.heading).toHaveText("Okta");
  await expect(page.getByTestId("directory-counts")).toHaveText("2 users · 1 group");
  await expect(page.getByTestId("directory-user-row")).toHaveCount(2);
  await expect(directories.userRow(ada)).toContainText("Ada Lovelace");
  await expect(directories.userRow(ada).getByTestId("user-state")).toHaveAttribute("data-state", "active");
  await expect(directories.userRow(bob).getByTestId("user-state")).toHaveAttribute("data-state", "inactive");
  await expect(directories.userRow(ada).getByTestId("user-link")).toHaveCount(0);
  await expect(directories.userRow(bob).getByTestId("user-link")).toHaveAttribute("data-reason", "outside_verified_domains");
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "users");

  await page.getByRole("combobox", { name: "Console account" }).selectOption("false");
  await expect(page.getByTestId("directory-user-row")).toHaveCount(1);
  await expect(directories.userRow(bob)).toBeVisible();
  await page.getByRole("combobox", { name: "Console account" }).selectOption("");

  await page.getByRole("combobox", { name: "State" }).selectOption("inactive");
  await expect(page.getByTestId("directory-user-row")).toHaveCount(1);
  await expect(directories.userRow(bob)).toBeVisible();
  await expect(page).toHaveURL(/state=inactive/);
  await page.getByRole("combobox", { name: "State" }).selectOption("");
  await page.getByRole("searchbox", { name: "Search users" }).fill("lovelace");
  await expect(page.getByTestId("directory-user-row")).toHaveCount(1);
  await expect(directories.userRow(ada)).toBeVisible();
  await page.getByRole("searchbox", { name: "Search users" }).fill("nobody by that name");
  await expect(page.getByRole("heading", { name: "No users match" })).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByTestId("directory-user-row")).toHaveCount(2);
  await expect(page.getByRole("searchbox", { name: "Search users" })).toHaveValue("");

  // Ada's page: her group, role from the mapping, emails and attributes.
  await directories.userRow(ada).getByRole("link").click();
  await expect(page.locator("#directory-user-title")).toHaveText("Ada Lovelace");
  await expect(page.getByTestId("user-groups")).toHaveText("Engineering");
  await expect(page.getByTestId("custom-attributes")).toContainText('"department": "Analytical Engines"');
  await expect(page.getByTestId("raw-attributes")).toContainText(ada);
  await expect(page.getByText("00u-ada", { exact: true })).toBeVisible();
  await expect(page.getByTestId("linked-member")).toContainText(ada);
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "user");

  // The Members page: Ada's membership is the directory's.
  await page.goto(`/tenants/${tenant.id}/members`);
  const adaMember = page.getByTestId("member-row").filter({ hasText: ada });
  await expect(adaMember.getByTestId("member-directory")).toHaveText("Managed by Okta");
  await expect(page.getByTestId("member-row").filter({ hasText: bob })).toHaveCount(0);
  await shoot(page, "members");

  // Groups: Engineering, mapped to viewer; it leads to its members.
  await page.goto(`/tenants/${tenant.id}/directories/${directory.id}?tab=groups`);
  await expect(directories.groupRow("Engineering")).toContainText("viewer");
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "groups");
  await directories.groupRow("Engineering").getByRole("link").click();
  await expect(page.getByText("In group Engineering")).toBeVisible();
  await expect(page.getByTestId("directory-user-row")).toHaveCount(1);
  await expect(directories.userRow(ada)).toBeVisible();

  // Sync activity: failed requests first, the 409 among them; all of them on demand.
  await directories.section("Sync activity").click();
  const failedOnly = page.getByRole("checkbox", { name: "Failed requests only" });
  await expect(failedOnly).toBeChecked();
  await expect(page.getByTestId("scim-request-row")).toHaveCount(1);
  await expect(page.getByTestId("scim-request-row").first()).toHaveAttribute("data-status", "409");
  await expect(page.getByTestId("scim-request-row").first()).toContainText("POST");
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "activity");
  await failedOnly.uncheck();
  // Every request the client made: two users, a group, the deactivation and the duplicate.
  await expect(page.getByTestId("scim-request-row")).toHaveCount(5);

  // A viewer reads the same pages without a control to change them.
  const viewerEmail = uniqueEmail("viewer");
  await people.addMember(tenant.id, { email: viewerEmail, role: "viewer", name: "E2E viewer", password: PASSWORD });
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await signInAs(viewer, viewerEmail, PASSWORD);
  await viewer.goto(`/tenants/${tenant.id}/directories`);
  await expect(viewer.getByTestId("directory-row")).toHaveCount(1);
  await expect(viewer.getByText("Read-only")).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Add directory" })).toHaveCount(0);
  await expect(viewer.getByRole("switch", { name: "Enable Okta" })).toBeDisabled();
  await viewer.getByRole("link", { name: "Okta" }).click();
  await expect(viewer.locator("#directory-title")).toHaveText("Okta");
  await expect(viewer.getByRole("button", { name: "Rotate token" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Save role mappings" })).toHaveCount(0);
  await expect(viewer.getByTestId("role-mappings")).toContainText("Engineering");
  await viewer
    .getByRole("navigation", { name: "Directory sections" })
    .getByRole("link", { name: /^Sync activity/ })
    .click();
  await expect(viewer.getByText("Only tenant admins can read the sync activity")).toBeVisible();
  await expectNoSeriousA11yViolations(viewer);
  await shoot(viewer, "viewer");
  await viewerContext.close();
});
