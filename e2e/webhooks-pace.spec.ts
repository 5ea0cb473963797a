import { expectNoSeriousA11yViolations } from "./axe";
import { expect, signInAs, test } from "./webhooks-fixtures";

const SHOTS = process.env.E2E_SCREENSHOTS;

test.use({
  allowedConsoleErrors: {
    "an admin sets a webhook's pace and order; a failing delivery holds the next one, shown as Held": /status of 400/,
  },
});

test("an admin sets a webhook's pace and order; a failing delivery holds the next one, shown as Held", async ({
  page,
  people,
  receiver,
  webhooksPage,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Paced webhooks");
  await signInAs(page, admin.email, admin.password);
  await webhooksPage.goto(tenant.id);

  // The endpoint fails at first: the webhook's own webhook.created delivery is its queue's head.
  const url = receiver.url("paced");
  receiver.answer(url, 500, "not yet");
  await webhooksPage.openCreate();
  await webhooksPage.fill({ url });
  const dialog = webhooksPage.webhookDialog.dialog;
  const rate = dialog.getByRole("textbox", { name: "Rate limit (deliveries per second)" });
  await expect(rate).toHaveAccessibleDescription(/Optional, 1 to 1000/);
  await rate.fill("0");
  await webhooksPage.webhookDialog.submit.click();
  await expect(dialog.locator("#webhook-rate-error")).toHaveText(/whole number from 1 to 1000/);
  await expect(rate).toBeFocused();
  await rate.fill("5");
  await dialog.getByRole("checkbox", { name: "Deliver in order" }).check();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/webhook-pace-form-desktop.png`, fullPage: true });
  await expectNoSeriousA11yViolations(page);
  await webhooksPage.webhookDialog.submit.click();
  await webhooksPage.secretDialog.done.click();

  await webhooksPage.openDetails(url);
  const pace = page.getByTestId("webhook-pace");
  await expect(pace).toContainText("Paced: at most 5 per second");
  await expect(pace).toContainText("Ordered: a failing delivery holds the ones behind it");

  // webhook.created failed and waits for its retry; the test event behind it is held, not failed.
  await expect(webhooksPage.delivery("webhook.created")).toHaveAttribute("data-status", "failed");
  await page.getByRole("button", { name: "Send test event" }).click();
  const held = webhooksPage.delivery("webhook.test");
  await expect(held.getByTestId("delivery-status")).toHaveText("Held");
  await expect(held.getByTestId("delivery-status")).toHaveAttribute("title", /sent after the deliveries before it/);
  expect(receiver.events(url, "webhook.test")).toHaveLength(0);
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/webhook-pace-page-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/webhook-pace-page-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The endpoint recovers: the head's retry succeeds, then the held one goes.
  receiver.answer(url, 200, "ok");
  await expect(webhooksPage.delivery("webhook.created")).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
  await expect(held).toHaveAttribute("data-status", "succeeded", { timeout: 10_000 });
  expect(receiver.events(url, "webhook.test")).toHaveLength(1);
});
