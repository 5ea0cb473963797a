import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_TOKEN } from "./constants";
import { expect, test, uniqueName } from "./fixtures";

const SHOTS = process.env.DOMAINS_SCREENSHOTS;

test("an operator adds a domain, sees the TXT record to publish, and marks it verified with a reason", async ({
  page,
  api,
  signedIn: _,
}) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const tenant = await api.createTenant(uniqueName("Domains"));
  await page.goto(`/tenants/${tenant.id}/domains`);
  const nav = page.getByRole("navigation", { name: "Tenant sections" });
  await expect(nav.getByRole("link", { name: "Domains" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No domains yet")).toBeVisible();
  await expect(page.getByText("Only verified domains will route").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // A bad domain is refused in the dialog, naming the field.
  await page.getByRole("button", { name: "Add your first domain" }).click();
  const add = page.getByRole("dialog", { name: "Add a domain" });
  await add.getByLabel("Domain").fill("*.example.com");
  await add.getByRole("button", { name: "Add domain" }).click();
  await expect(add.getByText("Domain must be a domain name, not a wildcard")).toBeVisible();
  const domain = `${Date.now().toString(36)}.Example.com`;
  await add.getByLabel("Domain").fill(domain);
  await add.getByRole("button", { name: "Add domain" }).click();
  await expect(add).toBeHidden();

  const item = page.getByTestId("domain-item").filter({ hasText: domain.toLowerCase() });
  await expect(item.getByTestId("domain-state")).toHaveAttribute("data-state", "pending");
  const name = `_control-plane-verification.${domain.toLowerCase()}`;
  await expect(item.getByText(name, { exact: true })).toBeVisible();
  await expect(item.getByText(/^control-plane-verification=[0-9a-f]{32}$/)).toBeVisible();
  await item.getByRole("button", { name: "Copy the record's name" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(name);
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/domains-pending-desktop.png`, fullPage: true });

  await item.getByRole("button", { name: "Mark verified…" }).click();
  const override = page.getByRole("dialog", { name: `Mark ${domain.toLowerCase()} verified` });
  await override.getByRole("button", { name: "Mark verified" }).click();
  await expect(override.getByText("Reason is required")).toBeVisible();
  await override.getByLabel("Reason").fill("Confirmed with the customer's registrar");
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/domains-override-desktop.png` });
  await override.getByRole("button", { name: "Mark verified" }).click();
  await expect(override).toBeHidden();
  await expect(item.getByTestId("domain-state")).toHaveAttribute("data-state", "verified");
  await expect(item.getByTestId("domain-state")).toHaveText("Verified by an operator");
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/domains-verified-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/domains-verified-phone.png`, fullPage: true });
  }

  // The reason is in the audit log.
  const audit = await page.request.get(`/api/v1/tenants/${tenant.id}/audit?event_type=domain.verified`, {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
  });
  const [event] = (await audit.json()).results;
  expect(event.details).toMatchObject({ method: "override", reason: "Confirmed with the customer's registrar" });
});
