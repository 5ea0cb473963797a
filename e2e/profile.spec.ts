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
