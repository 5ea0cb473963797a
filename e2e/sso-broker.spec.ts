/**
 * The OAuth broker end to end in the browser: an operator registers an application in the
 * console (its secret shown once), and a tiny client app served by this test on loopback signs a
 * person in through it: /api/sso/authorize with PKCE → the local OpenID Provider → back with a
 * code → /api/sso/token (client_secret_basic) → /api/sso/profile → the page shows the email.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { BASE_URL, OPERATOR_EMAIL, OPERATOR_PASSWORD } from "./constants";
import { expectNoSeriousA11yViolations } from "./axe";
import { ApplicationsPage } from "./pages/applications-page";
import { expect, signInAs, test as base, uniqueName } from "./sso-fixtures";

/** A client application as small as docs/sso.md's example: it keeps its PKCE verifiers by state. */
interface ClientApp {
  origin: string;
  credentials: { clientId: string; clientSecret: string } | null;
  close(): Promise<void>;
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function startClientApp(): Promise<ClientApp> {
  const verifiers = new Map<string, string>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app: ClientApp = { origin, credentials: null, close: () => new Promise((r) => server.close(() => r())) };
  const page = (status: number, body: string) => (res: http.ServerResponse) =>
    res
      .writeHead(status, { "content-type": "text/html; charset=utf-8" })
      .end(`<!DOCTYPE html><html lang="en"><title>Client app</title>${body}</html>`);

  server.on("request", async (req, res) => {
    const url = new URL(req.url!, origin);
    const { clientId, clientSecret } = app.credentials!;
    if (url.pathname === "/login") {
      const verifier = randomBytes(32).toString("base64url");
      const state = randomBytes(16).toString("base64url");
      verifiers.set(state, verifier);
      const authorize = new URL("/api/sso/authorize", BASE_URL);
      authorize.search = new URLSearchParams({
        response_type: "code",
        client_id: clientId,
        redirect_uri: `${origin}/callback`,
        state,
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
        login_hint: url.searchParams.get("email") ?? "",
      }).toString();
      res.writeHead(302, { location: authorize.toString() }).end();
      return;
    }
    if (url.pathname === "/callback") {
      const verifier = verifiers.get(url.searchParams.get("state") ?? "");
      if (!verifier || !url.searchParams.get("code")) return page(400, `<p>Sign-in failed: ${escape(url.search)}</p>`)(res);
      const token = await fetch(new URL("/api/sso/token", BASE_URL), {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: url.searchParams.get("code")!,
          redirect_uri: `${origin}/callback`,
          code_verifier: verifier,
        }),
      }).then((r) => r.json());
      const profile = await fetch(new URL("/api/sso/profile", BASE_URL), {
        headers: { authorization: `Bearer ${token.access_token}` },
      }).then((r) => r.json());
      page(200, `<main><h1>Signed in</h1><p data-testid="email">${escape(String(profile.email))}</p></main>`)(res);
      return;
    }
    page(404, "<p>Not found</p>")(res);
  });
  return app;
}

const test = base.extend<object, { clientApp: ClientApp }>({
  clientApp: [
    async ({}, provide) => {
      const app = await startClientApp();
      await provide(app);
      await app.close();
    },
    { scope: "worker" },
  ],
});

const shots = process.env.E2E_SCREENSHOTS;

test("an operator registers an application; a person signs in to it through the broker and the app shows their email", async ({
  page,
  browser,
  op,
  clientApp,
  people,
  ssoApi,
}) => {
  // The operator registers the client app in the console and copies its credentials.
  await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
  const applications = new ApplicationsPage(page);
  await applications.open();
  const name = uniqueName("Broker client");
  clientApp.credentials = await applications.register(name, [`${clientApp.origin}/callback`]);
  expect(clientApp.credentials.clientSecret).toMatch(/^cpsec_/);
  await expect(applications.secretPanel.getByRole("button", { name: "Copy client secret" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  if (shots) {
    await page.screenshot({ path: `${shots}/applications.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/applications-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
  }

  // A tenant with an OIDC provider at the local OP.
  const { tenant } = await people.tenantWith("admin", "Broker");
  const domain = `corp-${randomUUID().slice(0, 8)}.example`;
  const opClient = { id: `broker-${randomUUID().slice(0, 8)}`, secret: `secret-${randomUUID()}` };
  const provider = (await ssoApi.createProvider(tenant.id, {
    provider_type: "oidc",
    name: uniqueName("Broker OP"),
    metadata_url: op.discoveryUrl,
    domains: [domain],
    client_id: opClient.id,
    client_secret: opClient.secret,
  })) as unknown as { sp: { redirect_uri: string } };
  op.addClient({ client_id: opClient.id, client_secret: opClient.secret, redirect_uris: [provider.sp.redirect_uri] });

  // A person of that company signs in to the client app, in a fresh browser.
  const sub = `person-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  op.accounts.set(sub, { sub, email, email_verified: true, given_name: "Bea", family_name: "Broker" });
  const fresh = await browser.newContext();
  const visitor = await fresh.newPage();
  await visitor.goto(`${clientApp.origin}/login?email=${encodeURIComponent(email)}`);
  await visitor.waitForURL(`${clientApp.origin}/callback?**`);
  await expect(visitor.getByRole("heading", { name: "Signed in" })).toBeVisible();
  await expect(visitor.getByTestId("email")).toHaveText(email);
  // The broker gave the app a profile, not a console session.
  expect((await fresh.cookies(BASE_URL)).some((c) => c.name.includes("next-auth.session-token"))).toBe(false);
  await fresh.close();

  // Rotating the secret shows the new one once.
  await applications
    .row(name)
    .getByRole("button", { name: `Rotate the secret of ${name}` })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByTestId("new-client-secret")).not.toHaveText(clientApp.credentials.clientSecret);
});
