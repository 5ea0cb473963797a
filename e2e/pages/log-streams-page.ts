import { expect, type Locator, type Page } from "@playwright/test";
import { StepUpDialog } from "./step-up-dialog";

/** The add/edit dialog of a log stream. */
export class StreamDialog {
  readonly dialog: Locator;
  readonly name: Locator;
  readonly allEvents: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog", { name: /^(Add a log stream|Edit log stream)$/ });
    this.name = this.dialog.getByRole("textbox", { name: "Name" });
    this.allEvents = this.dialog.getByRole("radio", { name: "All events" });
    this.submit = this.dialog.getByRole("button", { name: /^(Add stream|Save changes)$/ });
  }

  /** A receiver type's card ("Amazon S3", "Syslog"). */
  type(label: string): Locator {
    return this.dialog.getByRole("radio", { name: label, exact: true });
  }

  /** A field of the type's settings, by its label ("Bucket", "Endpoint (optional)"). */
  field(label: string): Locator {
    return this.dialog.getByLabel(label, { exact: true });
  }

  start(label: "From now on" | "The whole log" | "Since a date"): Locator {
    return this.dialog.getByRole("radio", { name: label });
  }

  /** The error under a field: `config.bucket` → #stream-config-bucket-error. */
  error(field: string): Locator {
    return this.dialog.locator(`#stream-${field.replace(".", "-")}-error`);
  }
}

/** /tenants/{id}/log-streams and /tenants/{id}/log-streams/{streamId}. */
export class LogStreamsPage {
  readonly heading: Locator;
  readonly addButton: Locator;
  readonly table: Locator;
  readonly emptyState: Locator;
  readonly toast: Locator;
  readonly streamDialog: StreamDialog;
  readonly stepUp: StepUpDialog;
  readonly confirmDialog: Locator;
  /** The stream's page. */
  readonly detailsHeading: Locator;
  readonly state: Locator;
  readonly lag: Locator;
  readonly batches: Locator;
  readonly testResult: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 2, name: "Log streams" });
    this.addButton = page.getByRole("button", { name: /^Add (stream|your first stream)$/ });
    this.table = page.getByRole("table", { name: "Log streams" });
    this.emptyState = page.getByRole("heading", { name: "No log streams yet" });
    this.toast = page.getByTestId("toast");
    this.streamDialog = new StreamDialog(page);
    this.stepUp = new StepUpDialog(page);
    this.confirmDialog = page.getByRole("dialog", { name: "Delete this log stream?" });
    this.detailsHeading = page.locator("#stream-title");
    this.state = page.getByTestId("stream-state");
    this.lag = page.getByTestId("stream-lag");
    this.batches = page.getByRole("table", { name: "Batches" }).getByTestId("batch-row");
    this.testResult = page.getByTestId("test-result");
  }

  async goto(tenantId: string) {
    await this.page.goto(`/tenants/${tenantId}/log-streams`);
    await this.waitUntilLoaded();
  }

  async waitUntilLoaded() {
    await expect(this.heading).toBeVisible();
    // The first rows come with the HTML: wait for something only the running client shows before clicking.
    await expect(this.page.getByTestId("selected-tenant").first()).not.toHaveText("Loading…");
    await expect(this.table.getByTestId("stream-row").first().or(this.emptyState)).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByTestId("stream-row").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  async openCreate() {
    await this.addButton.first().click();
    await expect(this.streamDialog.dialog).toBeVisible();
  }
}
