import { expect, type Locator, type Page } from "@playwright/test";
import { StepUpDialog } from "./step-up-dialog";

/** The create/edit dialog of a provider. */
export class ProviderDialog {
  readonly dialog: Locator;
  readonly type: Locator;
  readonly name: Locator;
  readonly domains: Locator;
  readonly enabled: Locator;
  readonly submit: Locator;
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog", { name: /^(Add an SSO provider|Edit .+)$/ });
    this.type = this.dialog.getByRole("combobox", { name: "Type" });
    this.name = this.dialog.getByRole("textbox", { name: "Name" });
    this.domains = this.dialog.getByRole("textbox", { name: "Domains" });
    this.enabled = this.dialog.getByRole("checkbox", { name: "Enabled" });
    this.submit = this.dialog.getByRole("button", { name: /^(Add provider|Save changes)$/ });
    this.alert = this.dialog.getByRole("alert");
  }

  /** The URL field, whose label follows the type ("SAML metadata URL", "OpenID discovery URL"). */
  url(label: string): Locator {
    return this.dialog.getByRole("textbox", { name: label });
  }

  error(field: "provider_type" | "name" | "metadata_url" | "metadata_xml" | "domains"): Locator {
    return this.dialog.locator(`#sso-${field}-error`);
  }

  chips(): Locator {
    return this.dialog.getByTestId("domain-chip");
  }
}

export interface NewProvider {
  type: "SAML 2.0" | "OpenID Connect" | "Google Workspace" | "Microsoft Entra ID";
  name: string;
  url: string;
  domains?: string;
  /** The dialog leaves a new provider off (verify the domain, test, then enable): true ticks Enabled. */
  enabled?: boolean;
}

const URL_LABEL: Record<NewProvider["type"], string> = {
  "SAML 2.0": "SAML metadata URL",
  "OpenID Connect": "OpenID discovery URL",
  "Google Workspace": "OpenID discovery URL",
  "Microsoft Entra ID": "OpenID discovery URL",
};

/** /tenants/{id}/sso: the tenant's SSO providers. */
export class SsoPage {
  readonly card: Locator;
  readonly heading: Locator;
  readonly addButton: Locator;
  readonly readOnly: Locator;
  readonly table: Locator;
  readonly emptyState: Locator;
  readonly toast: Locator;
  readonly providerDialog: ProviderDialog;
  readonly stepUp: StepUpDialog;
  readonly confirmDialog: Locator;

  constructor(readonly page: Page) {
    this.card = page.locator("section", { has: page.getByRole("heading", { level: 2, name: "SSO providers" }) });
    this.heading = page.getByRole("heading", { level: 2, name: "SSO providers" });
    this.addButton = this.card.getByRole("button", { name: "Add provider" });
    this.readOnly = this.card.getByText("Read-only", { exact: true });
    this.table = page.getByRole("table", { name: "SSO providers" });
    this.emptyState = page.getByRole("heading", { name: "No SSO providers yet" });
    this.toast = page.getByTestId("toast");
    this.providerDialog = new ProviderDialog(page);
    this.stepUp = new StepUpDialog(page);
    this.confirmDialog = page.getByRole("dialog", { name: /^Delete .+\?$/ });
  }

  async goto(tenantId: string) {
    await this.page.goto(`/tenants/${tenantId}/sso`);
    await this.waitUntilLoaded();
  }

  /** The list (or its empty state) is drawn by the hydrated client after its first fetch. */
  async waitUntilLoaded() {
    await expect(this.heading).toBeVisible();
    await expect(this.table.getByTestId("provider-row").first().or(this.emptyState)).toBeVisible();
    await expect(this.page.locator('table[aria-busy="true"]')).toHaveCount(0);
  }

  row(name: string): Locator {
    return this.table.getByTestId("provider-row").filter({ has: this.page.getByRole("button", { name, exact: true }) });
  }

  switchOf(name: string): Locator {
    return this.page.getByRole("switch", { name: `Enable ${name}` });
  }

  /** The metadata status badge shown at this width (the row has one per layout). */
  status(name: string): Locator {
    return this.row(name).locator('[data-testid="metadata-status"]:visible');
  }

  certificate(name: string): Locator {
    return this.row(name).getByTestId("certificate-expiry");
  }

  /** Opens the row's details (the provider's name is the toggle). */
  async openDetails(name: string): Promise<Locator> {
    const toggle = this.row(name).getByRole("button", { name, exact: true });
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
    const id = await toggle.getAttribute("aria-controls");
    return this.page.locator(`[id="${id}"]`);
  }

  async openCreate() {
    await this.addButton.click();
    await expect(this.providerDialog.dialog).toBeVisible();
  }

  async fillProvider(provider: NewProvider) {
    const dialog = this.providerDialog;
    await dialog.type.selectOption({ label: provider.type });
    await dialog.name.fill(provider.name);
    await dialog.url(URL_LABEL[provider.type]).fill(provider.url);
    if (provider.domains !== undefined) await dialog.domains.fill(provider.domains);
    if (provider.enabled) await dialog.enabled.check();
  }

  async create(provider: NewProvider) {
    await this.openCreate();
    await this.fillProvider(provider);
    await this.providerDialog.submit.click();
    await expect(this.providerDialog.dialog).toBeHidden();
  }
}
