import { expect, test, uniqueName } from "./fixtures";

// Fails on any console or page error the journeys do not expect (e2e/fixtures.ts, consoleErrors).
const MISSING_TENANT = "00000000-0000-4000-8000-000000000000";
test.use({
  allowedConsoleErrors: {
    "a tenant that does not exist: the 404 page": new RegExp(`/tenants/${MISSING_TENANT}/members: .*status of 404`),
    "the same missing tenant, asked for by the console shell": /\/api\/trpc\/tenants\.get\?.*status of 404/,
  },
});

test.beforeEach(async ({ signedIn: _, tenantsPage }) => {
  await tenantsPage.waitUntilLoaded();
});

test("an empty or too long name shows an inline error and creates nothing", async ({ api, tenantsPage }) => {
  const before = (await api.listTenants({ page_size: 1 })).count;

  await tenantsPage.create("   ");
  await expect(tenantsPage.nameError).toHaveText("Name must not be empty");
  await expect(tenantsPage.nameInput).toHaveAttribute("aria-invalid", "true");
  await expect(tenantsPage.nameInput).toBeFocused();

  await tenantsPage.create("x".repeat(101));
  await expect(tenantsPage.nameError).toHaveText("Name must be at most 100 characters");

  await tenantsPage.nameInput.fill("Fixed");
  await expect(tenantsPage.nameError).toBeHidden();
  expect((await api.listTenants({ page_size: 1 })).count).toBe(before);
});

test("pages forward and back through tenants created over the API", async ({ page, api, tenantsPage }) => {
  const prefix = uniqueName("Paged");
  for (let i = 1; i <= 25; i++) await api.createTenant(`${prefix} #${String(i).padStart(2, "0")}`);
  const firstPage = await api.listTenants({ page_size: 20 });
  const secondPage = await api.listTenants({ page_size: 20, cursor: firstPage.next_cursor! });
  const total = firstPage.count;

  await page.reload();
  await tenantsPage.waitUntilLoaded();
  expect(await tenantsPage.names()).toEqual(firstPage.results.map((t) => t.name));
  expect(firstPage.results[0]!.name).toBe(`${prefix} #25`);
  await expect(tenantsPage.range).toHaveText(`Showing 1–20 of ${total}`);
  await expect(tenantsPage.previousButton).toBeDisabled();

  await tenantsPage.next();
  await expect(tenantsPage.table.getByRole("link").first()).toHaveText(secondPage.results[0]!.name);
  expect(await tenantsPage.names()).toEqual(secondPage.results.map((t) => t.name));
  await expect(tenantsPage.range).toHaveText(`Showing 21–${20 + secondPage.results.length} of ${total}`);
  await expect(tenantsPage.previousButton).toBeEnabled();

  await tenantsPage.previous();
  await expect(tenantsPage.table.getByRole("link").first()).toHaveText(`${prefix} #25`);
  expect(await tenantsPage.names()).toEqual(firstPage.results.map((t) => t.name));
  await expect(tenantsPage.range).toHaveText(`Showing 1–20 of ${total}`);
});

test("a tenant opens from the list and from the tenant switcher", async ({ page, api, tenantsPage, tenantDetailPage }) => {
  const first = await api.createTenant(uniqueName("Initech"));
  const second = await api.createTenant(uniqueName("Umbrella"));
  // The first rows come with the page's HTML (rendered on the server).
  const html = await (await page.request.get("/tenants")).text();
  expect(html).toContain(`href="/tenants/${second.id}"`);
  await page.reload();
  await tenantsPage.waitUntilLoaded();

  // A name in use (in any case) is worth a warning naming the tenant by ID, but not a refusal.
  await tenantsPage.nameInput.fill(first.name.toUpperCase());
  const warning = page.getByText(`A tenant named “${first.name}” already exists (${first.id.slice(0, 8)}).`);
  await expect(warning).toBeVisible();
  await tenantsPage.createButton.click();
  await expect(tenantsPage.toast).toContainText(`Tenant ${first.name.toUpperCase()} created`);
  await expect(warning).toBeHidden();

  await tenantsPage.table.getByRole("link", { name: first.name, exact: true }).click();
  await page.waitForURL(`**/tenants/${first.id}`);
  await expect(tenantDetailPage.heading(first.name)).toBeVisible();
  await expect(tenantDetailPage.tenantId).toHaveText(first.id);
  await expect(tenantsPage.shell.selectedTenant).toHaveText(first.name);

  // A new tenant's Overview lists what to set up next, each with its state and a way to its page.
  const steps = tenantDetailPage.nextSteps;
  await expect(steps.getByTestId("next-step-state")).toHaveText([
    /member/,
    "No verified domain",
    "SSO: not configured",
    "No directory connected",
    "No webhooks",
  ]);
  await expect(steps.locator('[data-done="true"]')).toHaveCount(0);
  for (const [action, path] of [
    ["Verify a domain", "domains"],
    ["Add a provider", "sso"],
    ["Connect a directory", "directories"],
    ["Add a webhook", "webhooks"],
  ]) {
    await expect(steps.getByRole("link", { name: action })).toHaveAttribute("href", `/tenants/${first.id}/${path}`);
  }

  await tenantsPage.shell.switchTo(second.name);
  await page.waitForURL(`**/tenants/${second.id}`);
  await expect(tenantDetailPage.heading(second.name)).toBeVisible();
});

test("a tenant id that does not exist is a 404 with the branded page and a way back", async ({ page, tenantDetailPage }) => {
  const response = await page.goto(`/tenants/${MISSING_TENANT}/members`);
  expect(response?.status()).toBe(404);
  await expect(tenantDetailPage.notFound).toBeVisible();
  // Inside the console shell, with no links into the tenant that was asked for.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members" })).toHaveCount(0);
  await page.getByRole("main").getByRole("link", { name: "Go to tenants" }).click();
  await page.waitForURL("**/tenants");
});
