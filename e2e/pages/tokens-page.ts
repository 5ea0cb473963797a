import { expect, type Locator, type Page } from "@playwright/test";

/** The API tokens page. */
export class TokensPage {
  readonly heading: Locator;
  readonly table: Locator;
  readonly createButton: Locator;
  readonly dialog: Locator;
  readonly emptyState: Locator;
  readonly newTokenPanel: Locator;
  readonly newTokenValue: Locator;
  readonly toast: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "API tokens" });
    this.table = page.getByRole("table", { name: "API tokens" });
    this.createButton = page.getByRole("button", { name: "Create token" }).first();
    this.dialog = page.getByRole("dialog");
    this.emptyState = page.getByRole("heading", { name: "No API tokens" });
    this.newTokenPanel = page.getByTestId("new-token-panel");
    this.newTokenValue = page.getByTestId("new-token-value");
    this.toast = page.getByTestId("toast");
  }

  async goto() {
    await this.page.goto("/tokens");
    await expect(this.heading).toBeVisible();
    await expect(this.table.getByTestId("token-row").first().or(this.emptyState)).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByTestId("token-row").filter({ hasText: name });
  }

  async create(token: { name: string; tenant?: string; readOnly?: boolean }) {
    await this.createButton.click();
    await expect(this.dialog).toBeVisible();
    await this.dialog.getByLabel("Name").fill(token.name);
    if (token.tenant) {
      // The picker lists what the search finds: type the name, then choose it.
      await this.dialog.getByLabel("Find a tenant").fill(token.tenant);
      const picker = this.dialog.getByLabel("Tenant", { exact: true });
      await expect(picker.getByRole("option", { name: token.tenant, exact: true })).toBeAttached();
      await picker.selectOption({ label: token.tenant });
    }
    if (token.readOnly) await this.dialog.getByLabel("Read-only").check();
    await this.dialog.getByRole("button", { name: "Create token" }).click();
    await expect(this.newTokenPanel).toBeVisible();
  }

  async revoke(name: string) {
    await this.page.getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(this.dialog).toBeVisible();
    await this.dialog.getByRole("button", { name: "Revoke token" }).click();
    await expect(this.dialog).toBeHidden();
  }
}
