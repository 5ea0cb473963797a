import { LoginPage } from "./pages/login-page";
import { expect, signInAs, test, uniqueEmail } from "./identity";

test("a member changes their password, then signs in with the new one", async ({ page, people, profilePage }) => {
  const { tenant, person } = await people.tenantWith("viewer", "Profile");
  await signInAs(page, person.email, person.password);

  await page.getByTestId("user-email").first().click();
  // The query keeps the selected tenant (/profile?tenant=…; console-nav.spec.ts checks that).
  await page.waitForURL((url) => url.pathname === "/profile");
  await expect(profilePage.email).toHaveText(person.email);
  await expect(page.getByRole("list", { name: "Memberships" })).toContainText(tenant.name);
  await expect(page.getByRole("list", { name: "Memberships" })).toContainText("Viewer");
  await expect(profilePage.submit).toBeEnabled();

  await profilePage.changePassword("wrong-current-password", "a-new-password-2");
  await expect(page.locator("#current-password-error")).toHaveText("Current password is incorrect");
  await expect(profilePage.currentPassword).toBeFocused();

  await profilePage.changePassword(person.password, "a-new-password-2", "a-different-one-3");
  await expect(page.locator("#confirm-password-error")).toHaveText("The new passwords do not match");

  await profilePage.changePassword(person.password, "a-new-password-2");
  await expect(profilePage.success).toBeVisible();
  await expect(profilePage.currentPassword).toHaveValue("");

  await page.getByRole("button", { name: "Sign out" }).first().click();
  await page.waitForURL(/\/login$/);
  const login = new LoginPage(page);
  await login.waitUntilReady();
  await login.signIn(person.email, person.password);
  await expect(login.error).toHaveText("Email or password is incorrect");
  await signInAs(page, person.email, "a-new-password-2");
});

test("after five wrong passwords, sign-in says how long to wait", async ({ loginPage }) => {
  const email = uniqueEmail("locked");
  await loginPage.goto();
  for (let attempt = 1; attempt <= 5; attempt++) {
    await loginPage.signIn(email, `wrong-${attempt}`);
    await expect(loginPage.error).toHaveText("Email or password is incorrect");
    await expect(loginPage.submit).toBeEnabled();
  }
  await loginPage.signIn(email, "wrong-6");
  await expect(loginPage.error).toHaveText("Too many attempts. Try again in 15 minutes.");
});

test("sessions: another browser is signed out from here, and sign out everywhere ends copies of this one", async ({
  page,
  browser,
  people,
  profilePage,
}) => {
  const { person } = await people.tenantWith("viewer", "Sessions");
  await signInAs(page, person.email, person.password);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signInAs(other, person.email, person.password);

  await profilePage.goto();
  const sessions = page.getByRole("list", { name: "Sessions" });
  await expect(sessions.getByTestId("session-row")).toHaveCount(2);
  await expect(sessions.getByText("This session")).toHaveCount(1);
  const otherRow = sessions.getByTestId("session-row").filter({ hasNotText: "This session" });
  await otherRow.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Sign out session" }).click();
  await expect(sessions.getByTestId("session-row")).toHaveCount(1);
  // The other browser is out at once: its next page is the sign-in page.
  await other.goto("/profile");
  await other.waitForURL(/\/login/);
  await elsewhere.close();

  // A copy of this browser's cookie works until this session ends, then not at all.
  const copy = await browser.newContext();
  await copy.addCookies(await page.context().cookies());
  const thief = await copy.newPage();
  await thief.goto("/profile");
  await expect(thief.getByTestId("profile-email")).toHaveText(person.email);

  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Sign out everywhere" }).click();
  await page.waitForURL(/\/login/);
  await thief.reload();
  await thief.waitForURL(/\/login/);
  await copy.close();
});
