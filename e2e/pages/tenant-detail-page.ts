import { expect, type Locator, type Page } from "@playwright/test";

export class TenantDetailPage {
  readonly tenantId: Locator;
  readonly notFound: Locator;

  constructor(readonly page: Page) {
    this.tenantId = page.getByTestId("tenant-id");
    this.notFound = page.getByRole("heading", { level: 1, name: "Page not found" });
  }

  heading(name: string): Locator {
    return this.page.getByRole("heading", { level: 1, name });
  }

  async goto(tenantId: string) {
    await this.page.goto(`/tenants/${tenantId}`);
    await expect(this.tenantId.or(this.notFound)).toBeVisible();
  }
}
