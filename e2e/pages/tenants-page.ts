import { expect, type Locator, type Page } from "@playwright/test";
import { ConsoleShell, expectHydratedTimes } from "./console";

export class TenantsPage {
  readonly shell: ConsoleShell;
  readonly heading: Locator;
  readonly nameInput: Locator;
  readonly createButton: Locator;
  readonly nameError: Locator;
  readonly table: Locator;
  readonly emptyState: Locator;
  readonly range: Locator;
  readonly nextButton: Locator;
  readonly previousButton: Locator;
  readonly toast: Locator;
  /** The table while it loads or changes page. */
  readonly busyTable: Locator;

  constructor(readonly page: Page) {
    this.shell = new ConsoleShell(page);
    this.heading = page.getByRole("heading", { level: 1, name: "Tenants" });
    this.nameInput = page.getByRole("textbox", { name: "Name" });
    this.createButton = page.getByRole("button", { name: "Create tenant" });
    this.nameError = page.locator("#tenant-name-error");
    this.table = page.getByRole("table", { name: "Tenants" });
    this.emptyState = page.getByRole("heading", { name: "No tenants yet" });
    this.range = page.getByTestId("page-range");
    this.nextButton = page.getByRole("navigation", { name: "Pagination" }).getByRole("button", { name: "Next" });
    this.previousButton = page.getByRole("navigation", { name: "Pagination" }).getByRole("button", { name: "Previous" });
    this.toast = page.getByTestId("toast");
    this.busyTable = page.locator('table[aria-busy="true"]');
  }

  async goto() {
    await this.page.goto("/tenants");
    await this.waitUntilLoaded();
  }

  /** The list (or its empty state) comes with the page; then React hydrates it. */
  async waitUntilLoaded() {
    await expect(this.heading).toBeVisible();
    await expect(this.table.getByRole("link").first().or(this.emptyState)).toBeVisible();
    await expect(this.busyTable).toHaveCount(0);
    if (await this.emptyState.isVisible()) await expect(this.createButton).toBeEnabled();
    else await expectHydratedTimes(this.table);
  }

  /** Names in the table, top to bottom. */
  async names(): Promise<string[]> {
    return this.table.getByRole("link").allTextContents();
  }

  row(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  async create(name: string) {
    await expect(this.createButton).toBeEnabled();
    await this.nameInput.fill(name);
    await this.createButton.click();
  }

  async next() {
    await this.nextButton.click();
    await expect(this.busyTable).toHaveCount(0);
  }

  async previous() {
    await this.previousButton.click();
    await expect(this.busyTable).toHaveCount(0);
  }
}
