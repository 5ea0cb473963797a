import { expect, type Locator, type Page } from "@playwright/test";

export class TenantDetailPage {
  readonly tenantId: Locator;
  readonly notFound: Locator;
  /** The Overview's next steps (members, domain, SSO, directory, webhooks). */
  readonly nextSteps: Locator;

  constructor(readonly page: Page) {
    this.tenantId = page.getByTestId("tenant-id");
    this.notFound = page.getByRole("heading", { level: 1, name: "Page not found" });
    this.nextSteps = page.getByTestId("next-steps");
  }

  heading(name: string): Locator {
    return this.page.getByRole("heading", { level: 1, name });
  }

  async goto(tenantId: string) {
    await this.page.goto(`/tenants/${tenantId}`);
    await expect(this.tenantId.or(this.notFound)).toBeVisible();
  }
}
