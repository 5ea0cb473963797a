import { expectNoSeriousA11yViolations } from "./axe";
import { expect, signatureOf, signInAs, test, uniqueName } from "./webhooks-fixtures";

// Fails on any console or page error the journeys do not expect (e2e/fixtures.ts, consoleErrors).
test.use({
  allowedConsoleErrors: {
    "the form journey sends bad values; the 400 is shown on the fields": /\/api\/trpc\/webhooks\.create\?.*status of 400/,
  },
});

test("an admin adds a webhook to a local receiver, sends a test event, sees it delivered, switches it off and on, and deletes it", async ({
  page,
  people,
  receiver,
  webhooksApi,
  webhooksPage,
}) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const { tenant, person: admin } = await people.tenantWith("admin", "Webhooks");
  await signInAs(page, admin.email, admin.password);
  await webhooksPage.goto(tenant.id);
  await expect(webhooksPage.emptyState).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Tenant sections" }).getByRole("link", { name: "Webhooks" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expectNoSeriousA11yViolations(page);

  const url = receiver.url("hook");
  await webhooksPage.openCreate();
  await expect(webhooksPage.webhookDialog.allEvents).toBeChecked();
  await expect(webhooksPage.webhookDialog.generateSecret).toBeChecked();
  // This server runs with OUTBOUND_ALLOW_PRIVATE=true, and the URL's hint says so (the receiver is plain http on 127.0.0.1).
  await expect(webhooksPage.webhookDialog.url).toHaveAccessibleDescription(/^Must be https, or plain http to a private or local host/);
  await webhooksPage.fill({ url, description: "Orders service", events: ["user.created", "sso_provider.enabled"], ownEvents: "invoice.*" });
  // Only kinds that can fire in a tenant: none of the platform's own (the OAuth broker's applications).
  await expect(webhooksPage.webhookDialog.event("sso.login_failed")).toBeVisible();
  await expect(webhooksPage.webhookDialog.event("sso.application_created")).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await webhooksPage.webhookDialog.submit.click();

  // The secret, once, with a copy button.
  const secrets = webhooksPage.secretDialog;
  await expect(secrets.dialog).toBeVisible();
  await expect(secrets.dialog).toContainText("You won't see this secret again.");
  const secret = (await secrets.value.textContent())!.trim();
  expect(secret.length).toBeGreaterThanOrEqual(16);
  await expect(secrets.done).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await secrets.copy.click();
  await expect(secrets.copy).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await secrets.done.click();
  await expect(secrets.dialog).toBeHidden();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);

  const row = webhooksPage.row(url);
  await expect(row).toContainText("Orders service");
  await expect(row).toContainText("Events: user.created, sso_provider.enabled +1 more");
  // The list shows the switch only (no Status badge repeating it).
  await expect(row.getByTestId("webhook-status")).toHaveCount(0);
  await expect(row).toContainText("None yet");
  await expect(webhooksPage.switchOf(url)).toBeChecked();

  // A test event: the toast links to its delivery, which succeeds.
  await row.getByRole("button", { name: `Send a test event to ${url}` }).click();
  const toast = webhooksPage.toast.filter({ hasText: "A test event is on its way" });
  await expect(toast).toBeVisible();
  await toast.getByRole("link", { name: "See the delivery" }).click();
  await expect(webhooksPage.detailsHeading).toHaveText(url);
  const delivery = webhooksPage.delivery("webhook.test");
  await expect(delivery).toHaveAttribute("data-status", "succeeded");
  await expect(delivery.getByTestId("attempt")).toHaveCount(1);
  await expect(delivery.getByTestId("attempt").first()).toHaveAttribute("data-response-status", "200");
  await expect(delivery.getByTestId("attempt").first()).toContainText("HTTP 200");
  await expect(page.getByTestId("last-delivery")).toHaveAttribute("data-status", "succeeded");
  await expectNoSeriousA11yViolations(page);

  // What the receiver got is signed with the secret shown above.
  const [request] = receiver.at(url);
  expect(request, "the receiver got the test event").toBeDefined();
  expect(JSON.parse(request!.body)).toMatchObject({ type: "webhook.test", tenant_id: tenant.id });
  expect(request!.headers["x-webhook-signature"]).toBe(signatureOf(secret, request!.body));
  expect(request!.headers["x-webhook-signature"]).not.toBe(signatureOf(`${secret}x`, request!.body));
  expect(receiver.at(url)).toHaveLength(1);

  // Off and on again, from the list.
  await page.getByRole("link", { name: "All webhooks" }).click();
  await webhooksPage.waitUntilLoaded();
  await expect(row.getByTestId("last-delivery")).toHaveAttribute("data-status", "succeeded");
  await webhooksPage.switchOf(url).click();
  await expect(webhooksPage.toast.filter({ hasText: `${url} is disabled` })).toBeVisible();
  await expect(webhooksPage.switchOf(url)).not.toBeChecked();
  await expect(row.getByRole("button", { name: `Send a test event to ${url}` })).toBeDisabled();
  expect((await webhooksApi.list(tenant.id))[0]!.enabled).toBe(false);
  await webhooksPage.switchOf(url).click();
  await expect(webhooksPage.switchOf(url)).toBeChecked();
  expect((await webhooksApi.list(tenant.id))[0]!.enabled).toBe(true);

  // Deleting asks first.
  await row.getByRole("button", { name: `Delete ${url}` }).click();
  await expect(webhooksPage.confirmDialog).toHaveAccessibleName("Delete this webhook?");
  await expectNoSeriousA11yViolations(page);
  await webhooksPage.confirmDialog.getByRole("button", { name: "Delete webhook" }).click();
  await expect(webhooksPage.confirmDialog).toBeHidden();
  await expect(webhooksPage.emptyState).toBeVisible();
  expect(await webhooksApi.list(tenant.id)).toEqual([]);
});

test("rotating the secret asks for the password, shows the new secret once, and signs with it", async ({
  page,
  people,
  receiver,
  webhooksApi,
  webhooksPage,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Webhooks");
  const url = receiver.url("rotate");
  const oldSecret = "old-secret-0123456789abcdef";
  const webhook = await webhooksApi.create(tenant.id, { url, events: ["*"], secret: oldSecret });
  await signInAs(page, admin.email, admin.password);
  await page.goto(`/tenants/${tenant.id}/webhooks/${webhook.id}`);
  await expect(webhooksPage.detailsHeading).toHaveText(url);
  await expect(page.getByText("All events", { exact: true })).toBeVisible();
  await expect(page.getByText(`••••${oldSecret.slice(-4)}`)).toBeVisible();

  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(webhooksPage.confirmDialog).toHaveAccessibleName("Rotate the signing secret?");
  await expect(webhooksPage.confirmDialog).toContainText("keeps signing deliveries alongside it for 24 hours");
  await webhooksPage.confirmDialog.getByRole("button", { name: "Rotate secret" }).click();
  await expect(webhooksPage.stepUp.dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await webhooksPage.stepUp.submit(admin.password);
  await expect(webhooksPage.stepUp.dialog).toBeHidden();

  const secrets = webhooksPage.secretDialog;
  await expect(secrets.dialog).toHaveAccessibleName("Copy the new signing secret");
  await expect(secrets.dialog).toContainText("You won't see this secret again.");
  await expect(secrets.dialog).toContainText("The old secret keeps signing deliveries alongside the new one for 24 hours");
  const newSecret = (await secrets.value.textContent())!.trim();
  expect(newSecret).not.toBe(oldSecret);
  await secrets.done.click();
  await expect(page.getByText(`••••${newSecret.slice(-4)}`)).toBeVisible();

  // On a phone, the test's result takes the place of its "on its way" notice: one toast, not two stacked.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(webhooksPage.toast.filter({ hasText: "A test event is on its way" })).toBeVisible();
  await expect(webhooksPage.toast.getByTestId("test-outcome")).toHaveAttribute("data-status", "succeeded");
  // Counted once, not waited for: stacked, the first would still be shown (its 5 s are not up).
  expect(await webhooksPage.toast.count()).toBe(1);
  await expect(webhooksPage.delivery("webhook.test")).toHaveAttribute("data-status", "succeeded");
  const [request] = receiver.events(url, "webhook.test");
  expect(request, "the receiver got the test event").toBeDefined();
  expect(request!.headers["x-webhook-signature"]).toBe(signatureOf(newSecret, request!.body));
  expect(request!.headers["x-webhook-signature"]).not.toBe(signatureOf(oldSecret, request!.body));
  // Both secrets sign the Standard Webhooks header during the overlap.
  expect(String(request!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
});

test("a failing endpoint: the attempts timeline shows the answer, and a retry delivers it", async ({
  page,
  people,
  receiver,
  webhooksApi,
  webhooksPage,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Webhooks");
  const url = receiver.url("failing");
  receiver.answer(url, 500, "upstream exploded: database is down");
  const webhook = await webhooksApi.create(tenant.id, { url, events: ["user.created"] });
  await signInAs(page, admin.email, admin.password);
  await page.goto(`/tenants/${tenant.id}/webhooks/${webhook.id}`);
  await expect(page.getByRole("heading", { name: "No deliveries yet" })).toBeVisible();

  await page.getByRole("button", { name: "Send test event" }).click();
  const delivery = webhooksPage.delivery("webhook.test");
  await expect(delivery).toHaveAttribute("data-status", "failed");
  const attempt = (await webhooksPage.openAttempts("webhook.test")).first();
  await expect(attempt).toContainText("HTTP 500");
  await expect(attempt).toContainText(/\d+ ms/);
  await expect(attempt.getByLabel("Response body of attempt 1")).toContainText("upstream exploded: database is down");
  await expect(attempt.getByTestId("next-attempt")).toContainText("Next attempt");
  await expectNoSeriousA11yViolations(page);

  receiver.answer(url, 200, "ok");
  await delivery.getByRole("button", { name: "Retry the webhook.test delivery" }).click();
  await expect(delivery).toHaveAttribute("data-status", "succeeded");
  // (A scheduled retry may have come first and failed too: count what the receiver saw.)
  const attempts = await webhooksPage.openAttempts("webhook.test");
  await expect(attempts.last()).toHaveAttribute("data-response-status", "200");
  expect(await attempts.count()).toBeGreaterThanOrEqual(2);
  expect(receiver.at(url)).toHaveLength(await attempts.count());
});

test("the form explains bad values inline", async ({ page, people, receiver, webhooksApi, webhooksPage }) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Webhooks");
  await signInAs(page, admin.email, admin.password);
  await webhooksPage.goto(tenant.id);
  await webhooksPage.openCreate();
  const dialog = webhooksPage.webhookDialog;

  // Caught before sending.
  await dialog.selectedEvents.check();
  await dialog.ownSecret.check();
  await dialog.secret.fill("too-short");
  await dialog.submit.click();
  await expect(dialog.error("url")).toHaveText("URL must not be empty");
  await expect(dialog.error("events")).toHaveText("Pick at least one event, or choose All events");
  await expect(dialog.error("secret")).toHaveText("Secret must be at least 16 characters");
  await expect(dialog.url).toBeFocused();

  // Refused by the server.
  await dialog.url.fill(`http://user:pass@127.0.0.1:9/${uniqueName("creds").replace(/\s+/g, "-")}`);
  await dialog.event("user.created").check();
  await dialog.secret.fill("a-long-enough-secret-value");
  await dialog.submit.click();
  await expect(dialog.error("url")).toHaveText("URL must not contain credentials");
  await expect(dialog.url).toBeFocused();
  expect(await webhooksApi.list(tenant.id)).toEqual([]);

  // A kind that never fires in a tenant, named; the application's own kinds are taken.
  await dialog.url.fill(receiver.url("ok"));
  await dialog.ownEvents.fill("sso.application_created");
  await dialog.submit.click();
  await expect(dialog.error("events")).toHaveText(
    "sso.application_created is not an event that can fire in this tenant: tick the kinds above, or type your application's own (invoice.paid) or a prefix (invoice.*)",
  );
  await dialog.ownEvents.fill("invoice.*");
  await dialog.submit.click();
  await expect(webhooksPage.secretDialog.value).toHaveText("a-long-enough-secret-value");
  expect((await webhooksApi.list(tenant.id)).map((w) => w.events)).toEqual([["user.created", "invoice.*"]]);
});

test("a viewer sees webhooks and deliveries read-only", async ({ page, people, receiver, webhooksApi, webhooksPage }) => {
  const { tenant, person: viewer } = await people.tenantWith("viewer", "Webhooks");
  const url = receiver.url("viewer");
  const webhook = await webhooksApi.create(tenant.id, { url, events: ["*"] });
  await signInAs(page, viewer.email, viewer.password);
  await webhooksPage.goto(tenant.id);

  await expect(webhooksPage.readOnly).toBeVisible();
  await expect(webhooksPage.switchOf(url)).toBeDisabled();
  await expect(webhooksPage.addButton).toHaveCount(0);
  for (const action of ["Send a test event to", "Edit", "Rotate the secret of", "Delete"]) {
    await expect(page.getByRole("button", { name: `${action} ${url}` })).toHaveCount(0);
  }
  await expectNoSeriousA11yViolations(page);

  await webhooksPage.openDetails(url);
  await expect(page).toHaveURL(new RegExp(`/webhooks/${webhook.id}$`));
  await expect(webhooksPage.readOnly).toBeVisible();
  for (const action of ["Send test event", "Edit", "Rotate secret", "Delete"]) {
    await expect(page.getByRole("button", { name: action, exact: true })).toHaveCount(0);
  }
  await expect(webhooksPage.switchOf(url)).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
});
