/**
 * `npm run screenshots`: pictures of the console for docs/console.md, in docs/screenshots/.
 *
 * Starts the e2e server (e2e/serve.mjs: a fresh database, the production build; run `npx next
 * build` first), arranges a realistic tenant over the REST API as the bootstrap operator (members,
 * SSO providers fetching metadata from a local stand-in, a webhook delivering to a local receiver,
 * audit events, a support user, tokens), then signs in with Chromium and saves the main pages at
 * desktop (1280) and phone (390) width, light and dark. Stops the server when done.
 *
 * E2E_PORT / E2E_SMTP_PORT / E2E_DATABASE_URL / NEXT_DIST_DIR choose where, as for the e2e tests;
 * the defaults are their own (port 3290, database cp_screenshots), so they do not collide.
 */
import { spawn } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import constants from "../e2e/constants.json" with { type: "json" };
import { startIdpServer } from "../test/support/idp-server.ts";
import { startSmtp } from "../test/support/smtp.ts";
import { startReceiver } from "../test/support/webhook-receiver.ts";

const port = Number(process.env.E2E_PORT ?? 3290);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 1);
const databaseUrl = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/cp_screenshots";
const baseUrl = `http://127.0.0.1:${port}`;
const outDir = path.resolve("docs/screenshots");

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function api<T>(method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/api/v1${route}`, {
    method,
    headers: { Authorization: `Bearer ${constants.bootstrapToken}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

async function waitForServer(deadline = Date.now() + 120_000) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/login`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not answer on ${baseUrl} within 120 s`);
}

/** A tenant as a real organisation would have it, and a few neighbours for the list. */
async function seed(idpUrl: string, receiverUrl: string): Promise<{ tenantId: string }> {
  for (const name of ["Wayne Enterprises", "Umbrella Health", "Stark Industries", "Initech", "Globex Corporation"]) {
    await api("POST", "/tenants", { name });
  }
  const tenant = await api<{ id: string }>("POST", "/tenants", { name: "Acme Corporation" });
  const members = `/tenants/${tenant.id}/members`;
  await api("POST", members, { email: "alice@acme.example", name: "Alice Moreau", role: "admin", password: "screenshot-pass-1" });
  await api("POST", members, { email: "bob@acme.example", name: "Bob Okafor", role: "viewer", password: "screenshot-pass-1" });
  await api("POST", members, { email: "chen@acme.example", name: "Chen Wei", role: "viewer" });
  await api("POST", `/tenants/${tenant.id}/invitations`, { email: "dana@acme.example", role: "admin" });

  const sso = `/tenants/${tenant.id}/sso`;
  await api("POST", sso, {
    provider_type: "saml",
    name: "Okta SAML",
    metadata_url: `${idpUrl}/saml.xml`,
    domains: ["acme.example", "acme-corp.example", "research.subsidiary-with-a-long-name.acme.example"],
  });
  await api("POST", sso, {
    provider_type: "oidc",
    name: "Contractors (OIDC)",
    metadata_url: `${idpUrl}/.well-known/openid-configuration`,
    domains: ["contractors.acme.example"],
    enabled: false,
  });

  const webhook = await api<{ id: string }>("POST", `/tenants/${tenant.id}/webhooks`, {
    url: `${receiverUrl}/hooks/control-plane`,
    events: ["*"],
    description: "Provisioning service",
  });
  await api("POST", `/tenants/${tenant.id}/webhooks`, {
    url: `${receiverUrl}/siem/ingest/a-rather-long-path/that-goes-on/for-a-while?source=control-plane`,
    events: ["user.created", "user.updated", "user.removed", "sso_provider.created", "sso_provider.disabled"],
    description: "SIEM",
  });
  await api("POST", `/tenants/${tenant.id}/webhooks/${webhook.id}/test`, {});

  const minute = 60_000;
  const events = [
    { event_type: "invoice.paid", actor: { id: "billing", email: "billing@acme.example" }, details: { amount: 1200, currency: "EUR" } },
    { event_type: "report.exported", actor: { id: "u-17", email: "bob@acme.example" }, details: { report: "Q3 access review" } },
    { event_type: "invoice.refunded", actor: { id: "billing", email: "billing@acme.example" }, details: { amount: 40 } },
  ];
  for (const [i, event] of events.entries()) {
    await api("POST", `/tenants/${tenant.id}/audit`, {
      ...event,
      timestamp: new Date(Date.now() - (i + 1) * 37 * minute).toISOString(),
      metadata: { ip_address: "203.0.113.7", user_agent: "acme-billing/2.3" },
    });
  }

  await api("POST", "/users", {
    email: "sam@support.example",
    name: "Sam Rivera",
    password: "screenshot-pass-1",
    platform_role: "support",
  });
  await api("POST", "/users", { email: "ops@platform.example", name: "Olu Ade", password: "screenshot-pass-1", platform_role: "operator" });
  await api("POST", "/tokens", { name: "Terraform (Acme)", tenant_id: tenant.id });
  await api("POST", "/tokens", { name: "Nightly audit export", read_only: true });
  return { tenantId: tenant.id };
}

/** Waits until the page has drawn its data: no loading tables or skeletons left. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page
    .locator('[aria-busy="true"], [data-skeleton]')
    .first()
    .waitFor({ state: "detached", timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForTimeout(300);
}

async function signedInPage(browser: Browser, viewport: { width: number; height: number }, colorScheme: "light" | "dark") {
  const context = await browser.newContext({ baseURL: baseUrl, viewport, colorScheme, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto("/login");
  const submit = page.getByRole("button", { name: "Sign in" });
  await submit.waitFor();
  await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('button[type="submit"]')?.disabled);
  await page.getByLabel("Email").fill(constants.operatorEmail);
  await page.getByLabel("Password").fill(constants.operatorPassword);
  await submit.click();
  await page.waitForURL("**/tenants");
  return page;
}

async function shoot(page: Page, route: string, file: string, prepare?: (page: Page) => Promise<void>) {
  await page.goto(route);
  await settle(page);
  if (prepare) {
    await prepare(page);
    await settle(page);
  }
  const target = path.join(outDir, file);
  await page.screenshot({ path: target });
  console.log(`${file}  ${Math.round(statSync(target).size / 1024)} KB`);
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const idp = await startIdpServer();
  const receiver = await startReceiver();
  // The invitation's mail lands here (the e2e server sends to SMTP_URL on this port).
  const smtp = await startSmtp(smtpPort);
  const server = spawn(process.execPath, ["e2e/serve.mjs"], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, E2E_PORT: String(port), E2E_SMTP_PORT: String(smtpPort), E2E_DATABASE_URL: databaseUrl },
  });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  let browser: Browser | null = null;
  try {
    await waitForServer();
    const { tenantId } = await seed(idp.url, receiver.url);
    await receiver.waitFor(1).catch(() => undefined);
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    const tenant = `/tenants/${tenantId}`;
    const openFirstProvider = async (page: Page) => {
      await page.getByRole("button", { name: "Okta SAML", exact: true }).click();
    };

    const desktop = await signedInPage(browser, DESKTOP, "light");
    await shoot(desktop, "/tenants", "tenants.png");
    await shoot(desktop, tenant, "tenant-overview.png");
    await shoot(desktop, `${tenant}/members`, "members.png");
    await shoot(desktop, `${tenant}/sso`, "sso-provider.png", openFirstProvider);
    await shoot(desktop, `${tenant}/audit`, "audit-log.png");
    await shoot(desktop, `${tenant}/webhooks`, "webhooks.png");
    await shoot(desktop, "/users", "platform-users.png");
    await shoot(desktop, `/tokens?tenant=${tenantId}`, "api-tokens.png");

    const phone = await signedInPage(browser, PHONE, "light");
    await shoot(phone, "/tenants", "phone-tenants.png");
    await shoot(phone, `${tenant}/members`, "phone-members.png");
    await shoot(phone, `${tenant}/sso`, "phone-sso.png", openFirstProvider);

    const dark = await signedInPage(browser, DESKTOP, "dark");
    await shoot(dark, `${tenant}/members`, "dark-members.png");
    const darkPhone = await signedInPage(browser, PHONE, "dark");
    await shoot(darkPhone, tenant, "dark-phone-overview.png");
  } finally {
    await browser?.close();
    server.kill("SIGTERM");
    await exited;
    await receiver.close();
    await smtp.close();
    await idp.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`screenshots: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
