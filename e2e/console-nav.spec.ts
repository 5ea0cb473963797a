/**
 * Finding and navigating (issue 14, items 1–3): the ⌘K tenant switcher, search on the tenants
 * list, the sidebar's tenant pages, the tenant kept on account pages, single-tenant landing, and
 * a real, branded 404.
 */
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD, OPERATOR_TOKEN } from "./constants";
import { expect, signInAs, test, uniqueName } from "./identity";
import { ConsoleShell } from "./pages/console";

const SHOTS = process.env.E2E_SCREENSHOTS;

test("Ctrl+K opens the tenant switcher: type part of a name, arrow down, Enter opens it on the same page", async ({ page, people }) => {
  const tag = uniqueName("Kay").split(" ")[1]!;
  const first = await people.createTenant(`Zephyr ${tag} North`);
  const second = await people.createTenant(`Zephyr ${tag} South`);
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  const shell = new ConsoleShell(page);
  await page.goto(`/tenants/${first.id}/members`);
  await expect(shell.selectedTenant).toHaveText(first.name);

  await page.keyboard.press("Control+k");
  await expect(shell.switcherDialog).toBeVisible();
  const input = shell.switcherDialog.getByRole("combobox");
  await expect(input).toBeFocused();
  await input.fill(`zephyr ${tag.toUpperCase()}`);
  const options = shell.switcherDialog.getByRole("option");
  // Each with the start of its ID (two tenants may share a name); the one open now is marked "current".
  await expect(options).toHaveText([`${second.name}${second.id.slice(0, 8)}`, `${first.name}${first.id.slice(0, 8)}current`]);
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/switcher-desktop.png` });

  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await page.waitForURL(`**/tenants/${second.id}/members`);
  await expect(shell.selectedTenant).toHaveText(second.name);

  // A pasted id and Enter at once, before its answer is in, open that tenant (not the row shown before).
  await page.keyboard.press("Control+k");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await input.fill(first.id);
  await page.keyboard.press("Enter");
  await page.waitForURL(`**/tenants/${first.id}/members`);
  await expect(shell.selectedTenant).toHaveText(first.name);

  // Nothing found says so; Escape closes.
  await page.keyboard.press("Control+k");
  await input.fill(`no such ${tag}`);
  await expect(shell.switcherDialog.getByText(`No tenant matches “no such ${tag}”.`)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(shell.switcherDialog).toBeHidden();
});

test("the tenants list searches by name, keeps the search in the URL, and says when nothing matches", async ({
  page,
  people,
  tenantsPage,
}) => {
  const tag = uniqueName("Find").split(" ")[1]!;
  const acme = await people.createTenant(`Acme ${tag}`);
  await people.createTenant(`Globex ${tag}`);
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  await tenantsPage.waitUntilLoaded();
  await page.getByRole("searchbox", { name: "Search tenants" }).fill(`ACME ${tag}`);
  await page.waitForURL((url) => url.searchParams.get("search") === `ACME ${tag}`);
  await expect(tenantsPage.table.getByRole("link")).toHaveText([acme.name]);
  await expectNoSeriousA11yViolations(page);

  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search tenants" })).toHaveValue(`ACME ${tag}`);
  await expect(tenantsPage.table.getByRole("link")).toHaveText([acme.name]);

  await page.goto(`/tenants?search=${encodeURIComponent(`nothing ${tag}`)}`);
  await expect(page.getByRole("heading", { name: `No tenant matches “nothing ${tag}”` })).toBeVisible();
});

test("the sidebar highlights Audit log and Webhooks on their pages and keeps the tenant on API tokens and Profile", async ({
  page,
  people,
  request,
}) => {
  const tenant = await people.createTenant(uniqueName("Nav"));
  const hook = await request.post(`/api/v1/tenants/${tenant.id}/webhooks`, {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
    data: { url: "https://hooks.example.test/nav", events: ["tenant.created"] },
  });
  expect(hook.status(), await hook.text()).toBe(201);
  const webhookId = ((await hook.json()) as { id: string }).id;
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  const nav = page.getByRole("complementary").getByRole("navigation", { name: "Main" });
  const shell = new ConsoleShell(page);

  await page.goto(`/tenants/${tenant.id}/audit`);
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Tenants" })).not.toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Webhooks" }).click();
  await page.waitForURL(`**/tenants/${tenant.id}/webhooks`);
  await expect(nav.getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Audit log" })).not.toHaveAttribute("aria-current", "page");

  // A webhook's page: its ID on one line, on a desktop and on a phone.
  await page.goto(`/tenants/${tenant.id}/webhooks/${webhookId}`);
  const id = page.getByRole("main").getByText(webhookId, { exact: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    expect((await id.boundingBox())!.height, `the webhook ID at ${width} px`).toBeLessThan(20);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/webhook-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  await nav.getByRole("link", { name: "API tokens" }).click();
  await page.waitForURL((url) => url.pathname === "/tokens" && url.searchParams.get("tenant") === tenant.id);
  await expect(shell.selectedTenant).toHaveText(tenant.name);
  await expect(nav.getByRole("link", { name: "API tokens" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("complementary").getByRole("link", { name: OPERATOR_EMAIL }).click();
  await page.waitForURL((url) => url.pathname === "/profile" && url.searchParams.get("tenant") === tenant.id);
  await expect(shell.selectedTenant).toHaveText(tenant.name);
  await nav.getByRole("link", { name: "Members" }).click();
  await page.waitForURL(`**/tenants/${tenant.id}/members`);
});

test("a member of exactly one tenant lands in it; another tenant's URL is a 404 without links into it", async ({ page, people }) => {
  const { tenant, person } = await people.tenantWith("viewer", "Solo");
  const other = await people.createTenant(uniqueName("Elsewhere"));
  await signInAs(page, person.email, person.password);
  await page.waitForURL(`**/tenants/${tenant.id}`);
  await expect(page.getByRole("heading", { level: 1, name: tenant.name })).toBeVisible();

  const response = await page.goto(`/tenants/${other.id}/audit`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByText(other.name)).toHaveCount(0);
  const nav = page.getByRole("complementary").getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // So is an unknown webhook of their own tenant, as any unknown id.
  const webhook = await page.goto(`/tenants/${tenant.id}/webhooks/00000000-0000-4000-8000-000000000000`);
  expect(webhook?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
});

test("an unknown route is a 404: branded, inside the console when signed in, with a way back", async ({ page, browser }) => {
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("complementary").getByRole("navigation", { name: "Main" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/not-found-desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/not-found-phone.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await page.getByRole("main").getByRole("link", { name: "Go to tenants" }).click();
  await page.waitForURL("**/tenants");

  const signedOut = await browser.newPage();
  const anonymous = await signedOut.goto(new URL("/no/such/page", page.url()).toString());
  expect(anonymous?.status()).toBe(404);
  await expect(signedOut.getByRole("link", { name: "Sign in" })).toBeVisible();
  await signedOut.close();
});
