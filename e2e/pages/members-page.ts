import { expect, type Locator, type Page } from "@playwright/test";
import { ConsoleShell, expectHydratedTimes } from "./console";

/** A tenant's Members tab. */
export class MembersPage {
  readonly shell: ConsoleShell;
  readonly table: Locator;
  readonly addButton: Locator;
  readonly inviteButton: Locator;
  readonly invitations: Locator;
  readonly dialog: Locator;
  readonly toast: Locator;
  readonly readOnlyNote: Locator;
  readonly actionError: Locator;

  constructor(readonly page: Page) {
    this.shell = new ConsoleShell(page);
    this.table = page.getByRole("table", { name: "Members" });
    this.addButton = page.getByRole("button", { name: "Add member" });
    this.inviteButton = page.getByRole("button", { name: "Invite", exact: true });
    this.invitations = page.getByRole("table", { name: "Pending invitations" });
    this.dialog = page.getByRole("dialog");
    this.toast = page.getByTestId("toast");
    this.readOnlyNote = page.getByText("You have view-only access");
    this.actionError = page.locator("section[aria-labelledby=members-title] [role=alert]");
  }

  async goto(tenantId: string) {
    await this.page.goto(`/tenants/${tenantId}/members`);
    await this.waitUntilLoaded();
  }

  /** The first members come with the page (the caller's role known); then React hydrates them. */
  async waitUntilLoaded() {
    await expect(this.table.getByTestId("member-row").first()).toBeVisible();
    await expect(this.page.locator('table[aria-busy="true"]')).toHaveCount(0);
    await expectHydratedTimes(this.table);
  }

  row(email: string): Locator {
    return this.table.getByTestId("member-row").filter({ hasText: email });
  }

  roleSelect(email: string): Locator {
    return this.page.getByRole("combobox", { name: new RegExp(`^Role of ${email.replace(/[.+]/g, "\\$&")}`) });
  }

  removeButton(email: string): Locator {
    return this.page.getByRole("button", { name: `Remove ${email}` });
  }

  setPasswordButton(email: string): Locator {
    return this.page.getByRole("button", { name: `Set password for ${email}` });
  }

  async openAddDialog() {
    await this.addButton.click();
    await expect(this.dialog).toBeVisible();
  }

  async addMember(member: { email: string; name?: string; role: "admin" | "viewer"; password?: string }) {
    await this.openAddDialog();
    await this.dialog.getByLabel("Email").fill(member.email);
    if (member.name) await this.dialog.getByLabel("Name (optional)").fill(member.name);
    await this.dialog.getByLabel("Role").selectOption(member.role);
    if (member.password) await this.dialog.getByLabel("Password (optional)").fill(member.password);
    await this.dialog.getByRole("button", { name: "Add member" }).click();
  }

  async invite(invitation: { email: string; role: "admin" | "viewer" }) {
    await this.inviteButton.click();
    await expect(this.dialog).toBeVisible();
    await this.dialog.getByLabel("Email").fill(invitation.email);
    await this.dialog.getByLabel("Role").selectOption(invitation.role);
    await this.dialog.getByRole("button", { name: "Send invitation" }).click();
  }

  invitationRow(email: string): Locator {
    return this.invitations.getByTestId("invitation-row").filter({ hasText: email });
  }
}
