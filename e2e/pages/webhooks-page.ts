import { expect, type Locator, type Page } from "@playwright/test";
import { StepUpDialog } from "./step-up-dialog";

/** The add/edit dialog of a webhook. */
export class WebhookDialog {
  readonly dialog: Locator;
  readonly url: Locator;
  readonly description: Locator;
  readonly allEvents: Locator;
  readonly selectedEvents: Locator;
  /** Kinds the tenant's application appends, typed. */
  readonly ownEvents: Locator;
  readonly generateSecret: Locator;
  readonly ownSecret: Locator;
  readonly secret: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog", { name: /^(Add a webhook|Edit webhook)$/ });
    this.url = this.dialog.getByRole("textbox", { name: "Endpoint URL" });
    this.description = this.dialog.getByRole("textbox", { name: "Description" });
    this.allEvents = this.dialog.getByRole("radio", { name: "All events" });
    this.selectedEvents = this.dialog.getByRole("radio", { name: "Selected events" });
    this.ownEvents = this.dialog.getByRole("textbox", { name: "Your application's events" });
    this.generateSecret = this.dialog.getByRole("radio", { name: /Generate one for me/ });
    this.ownSecret = this.dialog.getByRole("radio", { name: "Use my own" });
    this.secret = this.dialog.getByRole("textbox", { name: "Secret" });
    this.submit = this.dialog.getByRole("button", { name: /^(Add webhook|Save changes)$/ });
  }

  event(kind: string): Locator {
    return this.dialog.getByRole("checkbox", { name: kind, exact: true });
  }

  error(field: "url" | "description" | "events" | "secret"): Locator {
    return this.dialog.locator(`#webhook-${field}-error`);
  }
}

/** The secret shown once after adding a webhook or rotating its secret. */
export class SecretDialog {
  readonly dialog: Locator;
  readonly value: Locator;
  readonly copy: Locator;
  readonly done: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog", { name: /signing secret$/ });
    this.value = this.dialog.getByTestId("webhook-secret");
    this.copy = this.dialog.getByRole("button", { name: /^Cop(y|ied)$/ });
    this.done = this.dialog.getByRole("button", { name: "I have stored it safely" });
  }
}

export interface NewWebhook {
  url: string;
  description?: string;
  /** Kinds to tick; all events when left out. */
  events?: string[];
  /** The application's own kinds to type beside them ("invoice.*"). */
  ownEvents?: string;
  /** A secret to paste; generated when left out. */
  secret?: string;
}

/** /tenants/{id}/webhooks and /tenants/{id}/webhooks/{webhookId}. */
export class WebhooksPage {
  readonly heading: Locator;
  readonly addButton: Locator;
  readonly readOnly: Locator;
  readonly table: Locator;
  readonly emptyState: Locator;
  readonly toast: Locator;
  readonly webhookDialog: WebhookDialog;
  readonly secretDialog: SecretDialog;
  readonly stepUp: StepUpDialog;
  readonly confirmDialog: Locator;
  /** The details page. */
  readonly detailsHeading: Locator;
  readonly deliveries: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 2, name: "Webhooks" });
    this.addButton = page.getByRole("button", { name: "Add webhook" });
    this.readOnly = page.getByText("Read-only", { exact: true });
    this.table = page.getByRole("table", { name: "Webhooks" });
    this.emptyState = page.getByRole("heading", { name: "No webhooks yet" });
    this.toast = page.getByTestId("toast");
    this.webhookDialog = new WebhookDialog(page);
    this.secretDialog = new SecretDialog(page);
    this.stepUp = new StepUpDialog(page);
    this.confirmDialog = page.getByRole("dialog", { name: /^(Delete this webhook|Rotate the signing secret)\?$/ });
    this.detailsHeading = page.locator("#webhook-title");
    this.deliveries = page.getByRole("list", { name: "Deliveries" });
  }

  async goto(tenantId: string) {
    await this.page.goto(`/tenants/${tenantId}/webhooks`);
    await this.waitUntilLoaded();
  }

  async waitUntilLoaded() {
    await expect(this.heading).toBeVisible();
    // The first rows come with the HTML: wait for something only the running client shows before clicking.
    await expect(this.page.getByTestId("selected-tenant").first()).not.toHaveText("Loading…");
    await expect(this.table.getByTestId("webhook-row").first().or(this.emptyState)).toBeVisible();
    await expect(this.page.locator('table[aria-busy="true"]')).toHaveCount(0);
  }

  row(url: string): Locator {
    return this.table.getByTestId("webhook-row").filter({ has: this.page.getByRole("link", { name: url, exact: true }) });
  }

  switchOf(url: string): Locator {
    return this.page.getByRole("switch", { name: `Enable ${url}` });
  }

  async openCreate() {
    await this.addButton.first().click();
    await expect(this.webhookDialog.dialog).toBeVisible();
  }

  async fill(webhook: NewWebhook) {
    const dialog = this.webhookDialog;
    await dialog.url.fill(webhook.url);
    if (webhook.description !== undefined) await dialog.description.fill(webhook.description);
    if (webhook.events) {
      await dialog.selectedEvents.check();
      for (const kind of webhook.events) await dialog.event(kind).check();
      if (webhook.ownEvents) await dialog.ownEvents.fill(webhook.ownEvents);
    }
    if (webhook.secret !== undefined) {
      await dialog.ownSecret.check();
      await dialog.secret.fill(webhook.secret);
    }
  }

  /** Adds a webhook and answers the secret it was given (read off the shown-once dialog, left open). */
  async create(webhook: NewWebhook): Promise<string> {
    await this.openCreate();
    await this.fill(webhook);
    await this.webhookDialog.submit.click();
    await expect(this.webhookDialog.dialog).toBeHidden();
    await expect(this.secretDialog.dialog).toBeVisible();
    return (await this.secretDialog.value.textContent()) ?? "";
  }

  /** Opens a webhook's details page from the list. */
  async openDetails(url: string) {
    await this.row(url).getByRole("link", { name: url, exact: true }).click();
    await expect(this.detailsHeading).toHaveText(url);
  }

  delivery(eventType: string): Locator {
    return this.deliveries.getByTestId("delivery").filter({ hasText: eventType });
  }

  /** Opens a delivery's attempts (its event type is the toggle) and answers them. */
  async openAttempts(eventType: string): Promise<Locator> {
    const toggle = this.delivery(eventType).locator("button[aria-expanded]");
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
    return this.page.locator(`[id="${await toggle.getAttribute("aria-controls")}"]`).getByTestId("attempt");
  }
}
