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

  /** `tenant`: picked by its name and the start of its ID, as the picker shows it. */
  async create(token: { name: string; tenant?: { id: string; name: string }; readOnly?: boolean }) {
    await this.createButton.click();
    await expect(this.dialog).toBeVisible();
    await this.dialog.getByLabel("Name").fill(token.name);
    if (token.tenant) {
      // The picker lists what the search finds: type the name, then choose it.
      await this.dialog.getByLabel("Find a tenant").fill(token.tenant.name);
      const picker = this.dialog.getByLabel("Tenant", { exact: true });
      const label = `${token.tenant.name} · ${token.tenant.id.slice(0, 8)}`;
      await expect(picker.getByRole("option", { name: label, exact: true })).toBeAttached();
      await picker.selectOption({ label });
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
