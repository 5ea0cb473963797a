import { expect, type Locator, type Page } from "@playwright/test";

/** The signed-in frame around every console page: navigation, tenant switcher, account. */
export class ConsoleShell {
  readonly tenantSwitcher: Locator;
  readonly signOutButton: Locator;

  constructor(readonly page: Page) {
    this.tenantSwitcher = page.getByRole("combobox", { name: "Tenant" });
    this.signOutButton = page.getByRole("button", { name: "Sign out" });
  }

  /** The email shown in the account area. */
  signedInAs(email: string): Locator {
    return this.page.getByRole("complementary").getByText(email, { exact: true });
  }

  async switchTo(tenantName: string) {
    await expect(this.tenantSwitcher).toBeEnabled();
    await this.tenantSwitcher.selectOption({ label: tenantName });
  }

  async signOut() {
    await this.signOutButton.click();
    await this.page.waitForURL(/\/login$/);
  }
}
