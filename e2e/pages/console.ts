import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Waits for React to have hydrated a list the server rendered: its first relative time ("5 minutes
 * ago") replaces the exact one the HTML came with (server-rendered rows work only once hydrated).
 */
export async function expectHydratedTimes(scope: Locator) {
  await expect(scope.locator("time").first()).toHaveText(/ ago$|^just now$|^yesterday$|^last /);
}

/** The signed-in frame around every console page: navigation, tenant switcher, account. */
export class ConsoleShell {
  readonly tenantSwitcher: Locator;
  readonly signOutButton: Locator;

  constructor(readonly page: Page) {
    // The sidebar's (on phones the menu has its own): shows the selected tenant, opens the switcher.
    this.tenantSwitcher = page.getByRole("complementary").getByRole("button", { name: /switch tenant/i });
    this.signOutButton = page.getByRole("button", { name: "Sign out" });
  }

  /** The email shown in the account area. */
  signedInAs(email: string): Locator {
    return this.page.getByRole("complementary").getByText(email, { exact: true });
  }

  /** The name the switcher shows as selected. */
  get selectedTenant(): Locator {
    return this.page.getByRole("complementary").getByTestId("selected-tenant");
  }

  /** The type-ahead switcher (⌘K / Ctrl+K). */
  get switcherDialog(): Locator {
    return this.page.getByRole("dialog", { name: "Switch tenant" });
  }

  /** Opens the switcher, types (part of) the name, and opens the tenant with Enter. */
  async switchTo(tenantName: string) {
    await this.tenantSwitcher.click();
    await this.switcherDialog.getByRole("combobox").fill(tenantName);
    // A row is the name and the start of the tenant's ID.
    await expect(this.switcherDialog.getByRole("option").first()).toContainText(tenantName);
    await this.page.keyboard.press("Enter");
    await expect(this.switcherDialog).toBeHidden();
  }

  async signOut() {
    await this.signOutButton.click();
    await this.page.waitForURL(/\/login$/);
  }
}
