import { expect, type Locator, type Page } from "@playwright/test";

/** The Applications page (operators): the OAuth broker's registered applications. */
export class ApplicationsPage {
  readonly heading: Locator;
  readonly table: Locator;
  readonly registerButton: Locator;
  readonly dialog: Locator;
  readonly secretPanel: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Applications" });
    this.table = page.getByRole("table", { name: "Applications" });
    this.registerButton = page.getByRole("button", { name: "Register application" }).first();
    this.dialog = page.getByRole("dialog");
    this.secretPanel = page.getByTestId("new-secret-panel");
  }

  /** Opens the page from the sidebar, as an operator would. */
  async open() {
    await this.page.getByRole("complementary").getByRole("link", { name: "Applications" }).click();
    await expect(this.heading).toBeVisible();
    await expect(
      this.table
        .getByTestId("application-row")
        .first()
        .or(this.page.getByRole("heading", { name: "No applications" })),
    ).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByTestId("application-row").filter({ hasText: name });
  }

  /** Registers an application and reads its client ID and secret off the one-time panel. */
  async register(name: string, redirectUris: string[]): Promise<{ clientId: string; clientSecret: string }> {
    await this.registerButton.click();
    await expect(this.dialog).toBeVisible();
    await this.dialog.getByLabel("Name").fill(name);
    await this.dialog.getByLabel("Redirect URIs").fill(redirectUris.join("\n"));
    await this.dialog.getByRole("button", { name: "Register application" }).click();
    await expect(this.secretPanel).toBeVisible();
    await expect(this.row(name)).toBeVisible();
    return {
      clientId: (await this.page.getByTestId("new-client-id").textContent())!.trim(),
      clientSecret: (await this.page.getByTestId("new-client-secret").textContent())!.trim(),
    };
  }
}
