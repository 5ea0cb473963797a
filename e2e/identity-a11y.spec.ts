import { expectNoSeriousA11yViolations } from "./axe";
import { expect, signInAs, test, uniqueEmail, uniqueName } from "./identity";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD } from "./constants";

test("the members page has no serious accessibility violations, for admins, with pending invitations and the invite dialog open", async ({
  page,
  people,
  membersPage,
}) => {
  const { tenant, person: admin } = await people.tenantWith("admin", "Axe members");
  await people.addMember(tenant.id, { email: uniqueEmail("nopass"), role: "viewer", name: "No Password" });
  await signInAs(page, admin.email, admin.password);
  await membersPage.goto(tenant.id);
  await expect(membersPage.inviteButton).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await membersPage.invite({ email: uniqueEmail("pending"), role: "viewer" });
  await expect(membersPage.invitations).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await membersPage.inviteButton.click();
  await expectNoSeriousA11yViolations(page);
  await membersPage.dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(membersPage.dialog.getByText("Email must be an email address")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("an operator's add-member dialog has no serious accessibility violations", async ({ page, people, membersPage }) => {
  const { tenant } = await people.tenantWith("admin", "Axe operator");
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  await membersPage.goto(tenant.id);
  await membersPage.openAddDialog();
  await membersPage.dialog.getByRole("button", { name: "Add member" }).click();
  await expect(membersPage.dialog.getByText("Email must be an email address")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("the members page has no serious accessibility violations for a viewer", async ({ page, people, membersPage }) => {
  const { tenant, person } = await people.tenantWith("viewer", "Axe viewer");
  await signInAs(page, person.email, person.password);
  await membersPage.goto(tenant.id);
  await expect(membersPage.readOnlyNote).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("the tokens page with a new token's value has no serious accessibility violations", async ({ page, people, tokensPage }) => {
  const { person } = await people.tenantWith("admin", "Axe tokens");
  await signInAs(page, person.email, person.password);
  await tokensPage.goto();
  await expectNoSeriousA11yViolations(page);
  await tokensPage.create({ name: uniqueName("Axe token") });
  await expectNoSeriousA11yViolations(page);
});

test("the profile page has no serious accessibility violations", async ({ page, people, profilePage }) => {
  const { person } = await people.tenantWith("viewer", "Axe profile");
  await signInAs(page, person.email, person.password);
  await profilePage.goto();
  await expectNoSeriousA11yViolations(page);
  await profilePage.changePassword("", "short");
  await expect(page.locator("#new-password-error")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
