import { Secret, TOTP } from "otpauth";
import { expectNoSeriousA11yViolations } from "./axe";
import { LoginPage } from "./pages/login-page";
import { expect, signInAs, test } from "./identity";

/** The code an authenticator app shows `stepsAhead` 30-second steps from now (the server takes ±1 step). */
function codeFor(secret: string, stepsAhead = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + stepsAhead * 30_000 });
}

test("a member adds an authenticator app on the profile, signs in with its code, and confirms with it", async ({
  page,
  people,
  profilePage,
}) => {
  const { person } = await people.tenantWith("viewer", "MFA");
  await signInAs(page, person.email, person.password);
  await profilePage.goto();

  const card = page.getByRole("region", { name: "Two-factor authentication" });
  await expect(card).toContainText("Not set up");
  await card.getByRole("button", { name: "Add authenticator app" }).click();
  const stepUp = page.getByRole("dialog", { name: "Confirm it's you to add an authenticator app" });
  await stepUp.getByLabel("Password", { exact: true }).fill(person.password);
  await stepUp.getByRole("button", { name: "Confirm" }).click();

  const add = page.getByRole("dialog", { name: "Add an authenticator app" });
  await expect(add.getByTestId("totp-qr")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const secret = (await add.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  await add.getByLabel("Name").fill("Work phone");
  await add.getByLabel("Code from the app").fill("000000");
  await add.getByRole("button", { name: "Add app" }).click();
  await expect(add.locator("#totp-code-error")).toBeVisible();
  await add.getByLabel("Code from the app").fill(codeFor(secret));
  await add.getByRole("button", { name: "Add app" }).click();
  await expect(add).toBeHidden();

  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
  const recoveryCodes = await page.getByTestId("recovery-codes").getByRole("listitem").allInnerTexts();
  await expectNoSeriousA11yViolations(page);
  await expect(card.getByTestId("mfa-factor-row")).toContainText("Work phone");
  await page.getByRole("button", { name: "I have stored it safely, hide it" }).click();

  await page.getByRole("button", { name: "Sign out" }).first().click();
  await page.waitForURL(/\/login$/);
  const login = new LoginPage(page);
  await login.waitUntilReady();
  await login.signIn(person.email, person.password);
  const code = page.getByLabel("Authentication code");
  await expect(code).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await code.fill("000000");
  await login.submit.click();
  await expect(login.error).toHaveText("That code is incorrect or was already used. Try the next one.");
  // The enrolment used this step's code: the next step's is new (and accepted a step early).
  await code.fill(codeFor(secret, 1));
  await login.submit.click();
  await page.waitForURL((url) => url.pathname === "/tenants" || url.pathname.startsWith("/tenants/"));

  // The step-up dialog asks for the app's code with the password.
  await profilePage.goto();
  await page.getByRole("button", { name: "New recovery codes" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm it's you to make new recovery codes" });
  await confirm.getByLabel("Password", { exact: true }).fill(person.password);
  await confirm.getByLabel("Authentication code").fill(codeFor(secret, 1));
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(confirm.locator("#step-up-totp-code-error")).toHaveText("Incorrect or already used code");
  // That code was spent signing in (the next one is half a minute away): a recovery code instead.
  await confirm.getByRole("button", { name: "Use a recovery code" }).click();
  await confirm.getByLabel("Recovery code").fill(recoveryCodes[0]!);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
  await expect(page.getByTestId("recovery-codes")).not.toContainText(recoveryCodes[1]!);
});
