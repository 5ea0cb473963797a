import { expect, type Locator, type Page } from "@playwright/test";

/** The "Confirm it's you" password dialog in front of actions that need a step-up. */
export class StepUpDialog {
  readonly dialog: Locator;
  readonly password: Locator;
  readonly confirm: Locator;
  readonly cancel: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog", { name: "Confirm it's you" });
    this.password = this.dialog.getByLabel("Password");
    this.confirm = this.dialog.getByRole("button", { name: "Confirm" });
    this.cancel = this.dialog.getByRole("button", { name: "Cancel" });
    this.error = page.locator("#step-up-password-error");
  }

  async submit(password: string) {
    await expect(this.dialog).toBeVisible();
    await this.password.fill(password);
    await this.confirm.click();
  }
}
