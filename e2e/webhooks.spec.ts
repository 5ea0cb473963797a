import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_TOKEN } from "./constants";
import { expect, signInAs, test as base, uniqueName } from "./identity";
import { WebhooksPage } from "./pages/webhooks-page";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local endpoint on 127.0.0.1 that records every request; answers 200 unless told otherwise. */
class Receiver {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
    readonly received: Received[],
    private readonly answers: Map<string, { status: number; body: string }>,
  ) {}

  static async start(): Promise<Receiver> {
    const received: Received[] = [];
    const answers = new Map<string, { status: number; body: string }>();
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const path = request.url ?? "/";
        received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
        const answer = answers.get(path) ?? { status: 200, body: "ok" };
        response.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, answers);
  }

  /** A fresh URL on this receiver, so each test reads only its own requests. */
  url(name: string): string {
    return `${this.origin}/${uniqueName(name).replace(/\s+/g, "-")}`;
  }

  answer(url: string, status: number, body: string) {
    this.answers.set(new URL(url).pathname, { status, body });
  }

  at(url: string): Received[] {
    return this.received.filter((r) => r.path === new URL(url).pathname);
  }

  /** What arrived at `url` for events of `type`. */
  events(url: string, type: string): Received[] {
    return this.at(url).filter((r) => (JSON.parse(r.body) as { type: string }).type === type);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The spec's signature: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret. */
function signatureOf(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

interface ApiWebhook {
  id: string;
  url: string;
  enabled: boolean;
  events: string[];
}

/** Webhooks over the REST API, as the bootstrap operator. */
class WebhooksApi {
  constructor(private readonly request: APIRequestContext) {}

  private headers = { Authorization: `Bearer ${OPERATOR_TOKEN}` };

  async create(tenantId: string, body: { url: string; events: string[]; secret?: string }): Promise<ApiWebhook & { secret: string }> {
    const response = await this.request.post(`/api/v1/tenants/${tenantId}/webhooks`, { headers: this.headers, data: body });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as ApiWebhook & { secret: string };
  }

  async list(tenantId: string): Promise<ApiWebhook[]> {
    const response = await this.request.get(`/api/v1/tenants/${tenantId}/webhooks`, { headers: this.headers });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { results: ApiWebhook[] }).results;
  }
}

const test = base.extend<{ webhooksApi: WebhooksApi; webhooksPage: WebhooksPage }, { receiver: Receiver }>({
  receiver: [
    async ({}, provide) => {
      const receiver = await Receiver.start();
      await provide(receiver);
      await receiver.close();
    },
    { scope: "worker" },
  ],
  webhooksApi: async ({ request }, provide) => provide(new WebhooksApi(request)),
  webhooksPage: async ({ page }, provide) => provide(new WebhooksPage(page)),
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
  await expect(page.getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
  await expectNoSeriousA11yViolations(page);

  const url = receiver.url("hook");
  await webhooksPage.openCreate();
  await expect(webhooksPage.webhookDialog.allEvents).toBeChecked();
  await expect(webhooksPage.webhookDialog.generateSecret).toBeChecked();
  await webhooksPage.fill({ url, description: "Orders service", events: ["user.created", "sso_provider.enabled"] });
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
  await expect(row).toContainText("Events: user.created, sso_provider.enabled");
  await expect(row.getByTestId("webhook-status")).toHaveAttribute("data-enabled", "true");
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

  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(webhooksPage.delivery("webhook.test")).toHaveAttribute("data-status", "succeeded");
  const [request] = receiver.events(url, "webhook.test");
  expect(request, "the receiver got the test event").toBeDefined();
  expect(request!.headers["x-webhook-signature"]).toBe(signatureOf(newSecret, request!.body));
  expect(request!.headers["x-webhook-signature"]).not.toBe(signatureOf(oldSecret, request!.body));
  // Both secrets sign the Standard Webhooks header during the overlap.
  expect(String(request!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
});

test("a failing endpoint: the attempts timeline shows the answer, and a retry delivers it", async ({ page, people, receiver, webhooksApi, webhooksPage }) => {
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
  await expect(attempt.locator("pre")).toContainText("upstream exploded: database is down");
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

  await dialog.url.fill(receiver.url("ok"));
  await dialog.submit.click();
  await expect(webhooksPage.secretDialog.value).toHaveText("a-long-enough-secret-value");
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
