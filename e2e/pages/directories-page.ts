import { expect, type Locator, type Page } from "@playwright/test";
import { StepUpDialog } from "./step-up-dialog";

/** The Directory Sync tab of a tenant: the list, a directory's page and its dialogs. */
export class DirectoriesPage {
  readonly emptyState: Locator;
  readonly addFirst: Locator;
  readonly add: Locator;
  readonly createDialog: Locator;
  readonly connectDialog: Locator;
  readonly baseUrl: Locator;
  readonly token: Locator;
  readonly setupSteps: Locator;
  readonly storedToken: Locator;
  readonly heading: Locator;
  readonly confirmDialog: Locator;
  readonly stepUp: StepUpDialog;
  readonly toast: Locator;
  readonly sections: Locator;
  readonly mappings: Locator;

  constructor(readonly page: Page) {
    this.emptyState = page.getByRole("heading", { name: "No directories yet" });
    this.addFirst = page.getByRole("button", { name: "Add your first directory" });
    this.add = page.getByRole("button", { name: "Add directory" });
    this.createDialog = page.getByRole("dialog", { name: "Add a directory" });
    this.connectDialog = page.getByRole("dialog", { name: /^(Directory created: connect .+|Copy the new SCIM token)$/ });
    this.baseUrl = this.connectDialog.getByTestId("scim-base-url");
    this.token = this.connectDialog.getByTestId("scim-token");
    this.setupSteps = this.connectDialog.getByTestId("setup-steps");
    this.storedToken = this.connectDialog.getByRole("button", { name: "I have stored the token safely" });
    this.heading = page.locator("#directory-title");
    this.confirmDialog = page.getByRole("dialog", { name: /^(Delete this directory|Rotate the SCIM token)\?$/ });
    this.stepUp = new StepUpDialog(page);
    this.toast = page.getByTestId("toast");
    this.sections = page.getByRole("navigation", { name: "Directory sections" });
    this.mappings = page.getByTestId("role-mapping");
  }

  async goto(tenantId: string) {
    await this.page.goto(`/tenants/${tenantId}/directories`);
  }

  row(name: string): Locator {
    return this.page.getByTestId("directory-row").filter({ hasText: name });
  }

  async create(name: string, provider: string) {
    await expect(this.createDialog).toBeVisible();
    await this.createDialog.getByRole("textbox", { name: "Name" }).fill(name);
    await this.createDialog.getByRole("combobox", { name: "Identity provider" }).selectOption({ label: provider });
    await this.createDialog.getByRole("button", { name: "Create directory" }).click();
  }

  section(name: "Overview" | "Users" | "Groups" | "Sync activity"): Locator {
    return this.sections.getByRole("link", { name: new RegExp(`^${name}`) });
  }

  userRow(userName: string): Locator {
    return this.page.getByTestId("directory-user-row").and(this.page.locator(`[data-user-name="${userName}"]`));
  }

  groupRow(name: string): Locator {
    return this.page.getByTestId("directory-group-row").and(this.page.locator(`[data-group-name="${name}"]`));
  }
}
