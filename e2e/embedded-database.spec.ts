// The embedded database (PGlite) over HTTP, as `npm start` runs it for a newcomer: a second
// production server, of its own, with no DATABASE_URL and a fresh DATA_DIR. The other journeys run
// on Postgres (e2e/serve.mjs); this one does not touch their server or database.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { append, BILLING } from "./audit-fixtures";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD, OPERATOR_TOKEN, PORT } from "./constants";
import { AuditPage } from "./pages/audit-page";
import { SERVER_ENTRY, serverEnv } from "./server-env.mjs";
import { expect, signatureOf, test, uniqueName } from "./webhooks-fixtures";

// Beside the journeys' server (and other worktrees' runs, which move E2E_PORT).
const EMBEDDED_PORT = PORT + 5;
const EMBEDDED_URL = `http://127.0.0.1:${EMBEDDED_PORT}`;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** First start migrates an empty PGlite database: slower than the Postgres server's start. */
const START_TIMEOUT = 90_000;

test.use({ baseURL: EMBEDDED_URL, allowedConsoleErrors: {} });

let server: ChildProcess | undefined;
let dataDir: string;
let output = "";
let startedIn = 0;

test.beforeAll(async () => {
  test.setTimeout(START_TIMEOUT + 10_000);
  expect(existsSync(path.join(ROOT, SERVER_ENTRY)), `${SERVER_ENTRY} (e2e/serve.mjs compiles it)`).toBe(true);
  dataDir = mkdtempSync(path.join(tmpdir(), "cp-e2e-embedded-"));
  const env: NodeJS.ProcessEnv = { ...serverEnv(EMBEDDED_PORT), DATA_DIR: dataDir };
  // A newcomer sets none of these: no database (so the embedded one), no mail server (mail goes
  // to DATA_DIR/mail), no secrets (generated into DATA_DIR/secrets.json).
  for (const name of ["DATABASE_URL", "SMTP_URL", "NEXTAUTH_SECRET", "ENCRYPTION_KEY"]) delete env[name];

  const started = Date.now();
  server = spawn(process.execPath, [SERVER_ENTRY], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<string>((resolve) => server!.once("exit", (code, signal) => resolve(`exited (${code ?? signal})`)));
  for (const stream of [server.stdout!, server.stderr!]) {
    stream.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      process.stderr.write(`[embedded] ${chunk.toString("utf8")}`);
    });
  }
  const ready = (async () => {
    for (;;) {
      const status = await fetch(`${EMBEDDED_URL}/api/health/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return "ready";
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const outcome = await Promise.race([ready, exited, new Promise<string>((resolve) => setTimeout(resolve, START_TIMEOUT, "timed out"))]);
  startedIn = Date.now() - started;
  expect(outcome, `the embedded server on ${EMBEDDED_URL}; its output:\n${output}`).toBe("ready");
  console.log(`The embedded server was ready in ${startedIn} ms.`);
});

test.afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise<number | null>((resolve) => server!.once("exit", (code) => resolve(code)));
    server.kill("SIGTERM");
    const code = await Promise.race([exited, new Promise<"hung">((resolve) => setTimeout(resolve, 15_000, "hung"))]);
    if (code === "hung") server.kill("SIGKILL");
    expect(code, `the embedded server's exit on SIGTERM; its output:\n${output}`).toBe(0);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("with no DATABASE_URL, the server runs on the embedded database: sign in, a tenant, audit events and a signed webhook", async ({
  page,
  request,
  loginPage,
  tenantsPage,
  receiver,
  webhooksApi,
}) => {
  await test.step("the server says it serves the embedded database, and keeps it in DATA_DIR", () => {
    expect(output).toContain(`Control Plane is serving on ${EMBEDDED_URL} (embedded database in ${dataDir})`);
    expect(readdirSync(path.join(dataDir, "pglite"))).toContain("PG_VERSION");
    expect(existsSync(path.join(dataDir, "secrets.json")), "secrets generated into DATA_DIR").toBe(true);
  });

  const name = uniqueName("Embedded");
  let tenantId = "";
  await test.step("the operator signs in and creates the first tenant in the console", async () => {
    await loginPage.goto();
    await loginPage.signIn(OPERATOR_EMAIL, OPERATOR_PASSWORD);
    await page.waitForURL("**/tenants");
    await tenantsPage.waitUntilLoaded();
    await expect(tenantsPage.emptyState).toBeVisible();
    await tenantsPage.create(name);
    await expect(tenantsPage.toast).toContainText(`Tenant ${name} created`);
    const link = tenantsPage.table.getByRole("link", { name, exact: true });
    tenantId = (await link.getAttribute("href"))!.split("/").pop()!;
    expect(tenantId).toMatch(/^[0-9a-f-]{36}$/);
  });

  const url = receiver.url("embedded");
  const secret = "embedded-secret-0123456789abcdef";
  await test.step("a webhook for the application's invoice events, to a receiver on 127.0.0.1", async () => {
    await webhooksApi.create(tenantId, { url, events: ["invoice.*"], secret });
  });

  const details = { amount: 1250, currency: "EUR" };
  const paid = await test.step("the application appends an event, and reads it back over REST and in the console", async () => {
    const event = await append(request, tenantId, { event_type: "invoice.paid", actor: BILLING, details });
    const response = await request.get(`/api/v1/tenants/${tenantId}/audit`, { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(response.status(), await response.text()).toBe(200);
    const { results } = (await response.json()) as { results: { id: string; event_type: string; details: unknown }[] };
    expect(results.map((e) => e.event_type)).toEqual(["invoice.paid", "webhook.created", "tenant.created"]);
    expect(results[0]).toMatchObject({ id: event.id, details });

    const audit = new AuditPage(page);
    await audit.goto(tenantId);
    await expect(audit.rows).toHaveCount(3);
    await expect(audit.rows.first()).toHaveAttribute("data-event-id", event.id);
    await expect(audit.chainStatus).toContainText("Verified ✓ 3 events");
    return event;
  });

  await test.step("the receiver gets the event, signed with the webhook's secret", async () => {
    await expect.poll(() => receiver.events(url, "invoice.paid").length).toBe(1);
    const [delivery] = receiver.events(url, "invoice.paid");
    expect(JSON.parse(delivery!.body)).toMatchObject({ id: paid.id, type: "invoice.paid", data: { details } });
    expect(delivery!.headers["x-webhook-signature"]).toBe(signatureOf(secret, delivery!.body));
  });
});
