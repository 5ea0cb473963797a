import { expect, type Locator, type Page } from "@playwright/test";

export class LoginPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel("Email");
    this.password = page.getByLabel("Password");
    this.submit = page.getByRole("button", { name: "Sign in" });
    // By id: Next's route announcer is an (empty) role="alert" too.
    this.error = page.locator("#login-error");
  }

  async goto(callbackUrl?: string) {
    await this.page.goto(callbackUrl ? `/login?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/login");
    await this.waitUntilReady();
  }

  /** The submit button is enabled only once React has hydrated the form. */
  async waitUntilReady() {
    await expect(this.submit).toBeEnabled();
  }

  async signIn(email: string, password: string) {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }

  /** "Continue with SSO" with a work email: on to the identity provider its domain routes to. */
  async continueWithSso(email: string) {
    await this.page.getByRole("button", { name: "Continue with SSO" }).click();
    await this.page.getByLabel("Work email").fill(email);
    await this.page.getByRole("form", { name: "Sign in with SSO" }).getByRole("button", { name: "Continue with SSO" }).click();
  }
}
