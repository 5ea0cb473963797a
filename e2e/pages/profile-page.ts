import { expect, type Locator, type Page } from "@playwright/test";

/** The signed-in user's profile. */
export class ProfilePage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly currentPassword: Locator;
  readonly newPassword: Locator;
  readonly confirmPassword: Locator;
  readonly submit: Locator;
  readonly success: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Profile" });
    this.email = page.getByTestId("profile-email");
    this.currentPassword = page.getByLabel("Current password");
    this.newPassword = page.getByLabel("New password", { exact: true });
    this.confirmPassword = page.getByLabel("Confirm new password");
    this.submit = page.getByRole("button", { name: "Change password" });
    this.success = page.getByText("Your password has been changed");
  }

  async goto() {
    await this.page.goto("/profile");
    await expect(this.email).toBeVisible();
    await expect(this.submit).toBeEnabled();
  }

  async changePassword(current: string, next: string, confirm = next) {
    await this.currentPassword.fill(current);
    await this.newPassword.fill(next);
    await this.confirmPassword.fill(confirm);
    await this.submit.click();
  }
}
