import { expect, type Download, type Locator, type Page } from "@playwright/test";

/** The detail drawer of one audit event. */
export class EventDrawer {
  readonly dialog: Locator;
  readonly details: Locator;
  readonly exactTime: Locator;
  readonly closeButton: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog");
    this.details = this.dialog.getByTestId("event-details");
    this.exactTime = this.dialog.getByTestId("event-exact-time");
    this.closeButton = this.dialog.getByRole("button", { name: "Close" });
  }

  /** The value shown for `label` ("Sequence", "Hash", "IP address", …). */
  value(label: string): Locator {
    return this.dialog.locator(`[data-field="${label}"] dd`);
  }

  copyButton(what: string): Locator {
    return this.dialog.getByRole("button", { name: `Copy ${what}` });
  }
}

export type RangeLabel = "Any time" | "Last hour" | "Last 24 hours" | "Last 7 days" | "Last 30 days" | "Custom range";

/** /tenants/{id}/audit: the tenant's audit log for admins, viewers and support staff. */
export class AuditPage {
  readonly table: Locator;
  readonly rows: Locator;
  readonly filters: Locator;
  /** On a phone: the button that shows and hides the filters. */
  readonly filtersButton: Locator;
  readonly eventType: Locator;
  readonly actor: Locator;
  readonly range: Locator;
  readonly from: Locator;
  readonly to: Locator;
  readonly applyButton: Locator;
  readonly exportCsv: Locator;
  readonly exportJson: Locator;
  readonly chainStatus: Locator;
  readonly pageRange: Locator;
  readonly drawer: EventDrawer;

  constructor(readonly page: Page) {
    this.table = page.getByRole("table", { name: "Audit events" });
    this.rows = this.table.getByTestId("audit-row");
    this.filters = page.getByRole("search", { name: "Filter audit events" });
    this.filtersButton = page.getByRole("button", { name: /^Filters/ });
    this.eventType = this.filters.getByRole("combobox", { name: "Event type" });
    this.actor = this.filters.getByRole("combobox", { name: "Actor" });
    this.range = this.filters.getByRole("combobox", { name: "Date range" });
    this.from = this.filters.getByLabel("From (UTC)");
    this.to = this.filters.getByLabel("To (UTC)");
    this.applyButton = this.filters.getByRole("button", { name: "Apply" });
    this.exportCsv = page.getByRole("link", { name: "Export CSV" });
    this.exportJson = page.getByRole("link", { name: "Export JSON" });
    this.chainStatus = page.getByTestId("chain-status");
    this.pageRange = page.getByTestId("page-range");
    this.drawer = new EventDrawer(page);
  }

  async goto(tenantId: string, search = "") {
    await this.page.goto(`/tenants/${tenantId}/audit${search ? `?${search}` : ""}`);
    await this.waitUntilLoaded();
  }

  /** Rows (or an empty state) drawn by the hydrated client, no page on its way. */
  async waitUntilLoaded() {
    await expect(this.page.getByRole("heading", { level: 2, name: "Audit log" })).toBeVisible();
    // The first rows come with the server's HTML; the filters work once React has hydrated them.
    await expect(this.applyButton).toBeEnabled();
    await expect(this.page.locator('table[aria-busy="true"]')).toHaveCount(0);
    await expect(this.rows.first().or(this.page.locator("section[aria-labelledby=audit-title] h3").first())).toBeVisible();
  }

  async filter({ type, actor, range, from, to }: { type?: string; actor?: string; range?: RangeLabel; from?: string; to?: string }) {
    if (type !== undefined) await this.eventType.fill(type);
    if (actor !== undefined) await this.actor.fill(actor);
    if (range !== undefined) await this.range.selectOption({ label: range });
    if (from !== undefined) await this.from.fill(from);
    if (to !== undefined) await this.to.fill(to);
    const before = this.page.url();
    await this.applyButton.click();
    await this.page.waitForURL((url) => url.toString() !== before);
    await this.waitUntilLoaded();
  }

  /** The field's inline error (the API's 400 names the parameter). */
  error(field: "type" | "actor" | "range" | "from" | "to"): Locator {
    return this.filters.locator(`#audit-${field}-error`);
  }

  /** Event ids of the rows shown, top to bottom (once no other page is on its way). */
  async shownIds(): Promise<string[]> {
    await expect(this.page.locator('table[aria-busy="true"]')).toHaveCount(0);
    return this.rows.evaluateAll((rows) => rows.map((row) => row.getAttribute("data-event-id") ?? ""));
  }

  /** Waits until the table shows exactly these events, in this order. */
  async expectShown(ids: string[]) {
    await expect.poll(() => this.shownIds()).toEqual(ids);
  }

  /** The button that opens an event of this type (its time, named "Open <type> event of <time>"). */
  eventButton(eventType: string): Locator {
    return this.table.getByRole("button", { name: `Open ${eventType} event of` });
  }

  /** The event type in a row: a link that filters by it. */
  typeLink(eventType: string): Locator {
    return this.table.getByRole("link", { name: eventType, exact: true });
  }

  /** An actor in a row: a link that filters by them. */
  actorLink(name: string): Locator {
    return this.table.getByRole("link", { name, exact: true });
  }

  /** The Target cells of the rows shown. */
  targetCells(): Locator {
    return this.rows.locator("td:nth-child(4)");
  }

  /** Follows a link in the table and waits for the page it leads to (same page: filtered). */
  async follow(link: Locator) {
    const before = this.page.url();
    await link.first().click();
    await this.page.waitForURL((url) => url.toString() !== before);
  }

  async open(eventType: string) {
    await this.eventButton(eventType).first().click();
    await expect(this.drawer.dialog).toBeVisible();
  }

  async download(link: Locator): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent("download"), link.click()]);
    return download;
  }
}
