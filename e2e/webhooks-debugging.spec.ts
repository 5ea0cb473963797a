/**
 * Debugging a webhook in the console: the request beside the response, the test event's outcome,
 * an open delivery that stays put, the filter in the URL, the banner of a webhook failing for a
 * day, Retry off while the webhook is disabled.
 */
import pg from "pg";
import { expectNoSeriousA11yViolations } from "./axe";
import constants from "./constants.json" with { type: "json" };
import { expect, signInAs, test } from "./webhooks-fixtures";

// Fails on any console or page error (e2e/fixtures.ts, consoleErrors).
test.use({ allowedConsoleErrors: {} });

test("debugging a webhook: the request beside the response, the test event's outcome, an open delivery stays put, the filter in the URL, Retry off while disabled", async ({
  page,
  people,
  receiver,
  webhooksApi,
  webhooksPage,
}) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const { tenant, person: admin } = await people.tenantWith("admin", "Webhooks");
  const url = receiver.url("debugging");
  receiver.answer(url, 500, "not today");
  const webhook = await webhooksApi.create(tenant.id, { url, events: ["user.created"] });
  await signInAs(page, admin.email, admin.password);

  // The first rows come with the page's HTML (rendered on the server).
  const html = await (await page.request.get(`/tenants/${tenant.id}/webhooks`)).text();
  expect(html).toContain('data-testid="webhook-row"');
  expect(html).toContain(url);

  const detailsPath = `/tenants/${tenant.id}/webhooks/${webhook.id}`;
  await page.goto(detailsPath);
  await expect(page.getByTestId("selected-tenant").first()).not.toHaveText("Loading…"); // hydrated: buttons come with the HTML
  await expect(page.getByRole("heading", { name: "No deliveries yet" })).toBeVisible();

  // "Send test event" says what it came to once the attempt is made.
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByTestId("test-outcome")).toContainText(/Failed: HTTP 500 in \d+ ms, will retry at /);
  const first = webhooksPage.deliveries.getByTestId("delivery").first();
  const firstId = (await first.getAttribute("data-delivery-id"))!;

  // The attempt: the request sent (signatures cut short, payload pretty-printed, copyable) beside the response.
  const attempt = (await webhooksPage.openAttempts("webhook.test")).first();
  const [sent] = receiver.events(url, "webhook.test");
  const hex = String(sent!.headers["x-webhook-signature"]);
  const standard = String(sent!.headers["webhook-signature"]);
  const request = attempt.getByTestId("attempt-request");
  await expect(request).toContainText(`POST ${url}`);
  await expect(request.getByTestId("request-headers")).toContainText(`x-webhook-signature: ${hex.slice(0, 5)}…`);
  await expect(request.getByTestId("request-headers")).toContainText(`webhook-signature: ${standard.slice(0, 8)}…`);
  await expect(request).not.toContainText(hex);
  await expect(request).not.toContainText(standard.slice(3));
  const pretty = JSON.stringify(JSON.parse(sent!.body), null, 2);
  await expect(attempt.getByTestId("attempt-payload")).toHaveText(pretty);
  await attempt.getByRole("button", { name: "Copy the payload of attempt 1" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pretty);
  const response = attempt.getByTestId("attempt-response");
  await expect(response).toContainText("HTTP 500");
  await expect(response.getByTestId("response-headers")).toContainText("content-type: text/plain");
  await expect(response).toContainText("not today");
  await expectNoSeriousA11yViolations(page);

  // A new delivery arrives while one is open: the open one stays open and where it was.
  const openToggle = first.locator("button[aria-expanded]");
  // Where it sits in the document (the click below scrolls the window to the button).
  const offset = () => openToggle.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  const before = await offset();
  await page.getByRole("button", { name: "Send test event" }).click();
  const newOnes = page.getByTestId("new-deliveries");
  await expect(newOnes).toHaveText("Show 1 new delivery");
  await expect(openToggle).toHaveAttribute("aria-expanded", "true");
  await expect(webhooksPage.deliveries.getByTestId("delivery").first()).toHaveAttribute("data-delivery-id", firstId);
  expect(Math.abs((await offset()) - before)).toBeLessThanOrEqual(1);
  await newOnes.click();
  await expect(webhooksPage.deliveries.getByTestId("delivery")).toHaveCount(2);
  await expect(page.locator(`[data-delivery-id="${firstId}"] button[aria-expanded]`)).toHaveAttribute("aria-expanded", "true");

  // The status filter lives in the URL: it survives a reload, and Back undoes it.
  await page.getByLabel("Status", { exact: true }).selectOption("succeeded");
  await expect(page).toHaveURL(/[?&]status=succeeded/);
  await expect(page.getByRole("heading", { name: "No succeeded deliveries" })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Status", { exact: true })).toHaveValue("succeeded");
  await expect(page.getByRole("heading", { name: "No succeeded deliveries" })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${detailsPath}$`));
  await expect(page.getByLabel("Status", { exact: true })).toHaveValue("");
  await expect(webhooksPage.deliveries.getByTestId("delivery")).toHaveCount(2);

  // Failing for a day (its streak moved back in the database): a banner says since when and what to do.
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL ?? constants.databaseUrl });
  await client.connect();
  try {
    await client.query(`UPDATE webhooks SET failing_since = now() - interval '25 hours' WHERE id = $1`, [webhook.id]);
  } finally {
    await client.end();
  }
  await page.reload();
  const banner = page.getByRole("status").filter({ hasText: "Failing since" });
  await expect(banner).toContainText("Every delivery since then has failed.");
  // None has run out of retries yet: the banner says nothing of a count of 0.
  await expect(banner).not.toContainText("run out of retries");
  await expect(banner).toContainText("Fix the endpoint");
  await expect(banner.getByRole("button", { name: "Recover failed deliveries…" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("notice-banner-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("notice-banner-390.png") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectNoSeriousA11yViolations(page);

  // Disabled: what was due is cancelled, and Retry is off, saying why.
  await webhooksPage.switchOf(url).click();
  await expect(webhooksPage.switchOf(url)).not.toBeChecked();
  const retry = first.getByRole("button", { name: "Retry the webhook.test delivery" });
  await expect(first).toHaveAttribute("data-status", "cancelled");
  await expect(retry).toBeDisabled();
  await expect(retry).toHaveAccessibleDescription(/Retry is off while the webhook is disabled/);
  // Turned off by hand: no banner (it is for what the service found).
  await expect(banner).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});
