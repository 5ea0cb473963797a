/**
 * A webhook's content filter in the console (typed, tried against an example, refused with the
 * parser's problem, saved and shown), and "Recover failed deliveries since…" re-sending what
 * failed while the endpoint was down, with its progress. Screenshots at 1280 and 390 px.
 */
import { expectNoSeriousA11yViolations } from "./axe";
import { expect, signInAs, test } from "./webhooks-fixtures";

test.use({
  allowedConsoleErrors: {
    "an admin writes a filter, tries it against an example, and saves it": /\/api\/trpc\/webhooks\.filterTest\?.*status of 400/,
  },
});

const SHOTS = process.env.E2E_SCREENSHOTS_DIR;

test("an admin writes a filter, tries it against an example, and saves it", async ({ page, people, receiver, webhooksPage }) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Webhooks");
  await signInAs(page, admin.email, admin.password);
  await webhooksPage.goto(tenant.id);
  const url = receiver.url("filtered");
  await webhooksPage.openCreate();
  await webhooksPage.fill({ url, events: ["user.created", "user.removed"] });
  const dialog = webhooksPage.webhookDialog.dialog;
  const filter = dialog.getByRole("textbox", { name: "Filter (optional)" });
  const tryIt = dialog.getByRole("button", { name: "Test against example" });

  await filter.fill('type == "user.created"');
  await tryIt.click();
  await expect(dialog).toContainText("the event's kind is event.type");

  await filter.fill('event.type == "user.created"');
  await dialog.getByRole("combobox", { name: "Example event" }).selectOption("user.removed");
  await tryIt.click();
  await expect(dialog).toContainText("No match: this example would not be delivered.");
  await dialog.getByRole("combobox", { name: "Example event" }).selectOption("user.created");
  await tryIt.click();
  await expect(dialog).toContainText("Matches: this example would be delivered.");
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: `${SHOTS}/filter-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  await webhooksPage.webhookDialog.submit.click();
  await webhooksPage.secretDialog.done.click();
  await webhooksPage.openDetails(url);
  await expect(page.getByText('event.type == "user.created"')).toBeVisible();
});

test("an endpoint down for a while: its failed deliveries are recovered once it is up, with progress", async ({
  page,
  people,
  receiver,
  webhooksApi,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Webhooks");
  const url = receiver.url("recover");
  // Down, and asking not to be retried for an hour: only the recover re-sends them.
  receiver.answer(url, 503, "down", { "retry-after": "3600" });
  const webhook = await webhooksApi.create(tenant.id, { url, events: ["user.created"] });
  await signInAs(page, admin.email, admin.password);
  await page.goto(`/tenants/${tenant.id}/webhooks/${webhook.id}`);
  await expect(page.getByTestId("selected-tenant").first()).not.toHaveText("Loading…");

  // Two test events fail (each would retry in an hour).
  for (let i = 1; i <= 2; i++) {
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.events(url, "webhook.test").length).toBe(i);
  }
  await expect(page.getByTestId("test-outcome").first()).toContainText(/Failed: HTTP 503/);

  // Up again: recover everything since yesterday.
  receiver.answer(url, 200, "ok");
  await page.getByRole("button", { name: "Recover failed deliveries since…" }).click();
  const dialog = page.getByRole("dialog", { name: "Recover failed deliveries" });
  await expect(dialog.getByLabel("Since")).not.toHaveValue("");
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole("button", { name: "Recover" }).click();
  await expect(dialog).toContainText("Done: 2 re-sent, 2 delivered.");
  await expect(dialog.getByRole("progressbar", { name: "Delivered" })).toHaveAttribute("aria-valuenow", "2");
  if (SHOTS) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/recover-${width}.png`, fullPage: false });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  const sent = receiver.events(url, "webhook.test");
  expect(sent).toHaveLength(4);
  // The re-sends carry the same event ids as the failed ones, in their order.
  expect(sent.slice(2).map((r) => r.headers["webhook-id"])).toEqual(sent.slice(0, 2).map((r) => r.headers["webhook-id"]));
  await dialog.getByRole("button", { name: "Close", exact: true }).last().click();
  await expect(dialog).toBeHidden();
});
