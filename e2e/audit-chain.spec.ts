/**
 * The audit page's hash-chain status: an event altered behind the database's back (as its
 * superuser, the append-only triggers off for one statement) shows the chain broken at its sequence.
 */
import pg from "pg";
import { append, BILLING, daysAgo } from "./audit-fixtures";
import constants from "./constants.json" with { type: "json" };
import { createPlatformUser, expect, signInAs, test, uniqueName } from "./identity";
import { AuditPage } from "./pages/audit-page";

// Fails on any console or page error (e2e/fixtures.ts, consoleErrors): the status renders clean.
test.use({ allowedConsoleErrors: {} });

test("an event altered behind the database's back shows the chain broken at its sequence", async ({ page, people, request }) => {
  const tenant = await people.createTenant(uniqueName("Audit tampered"));
  await append(request, tenant.id, { event_type: "invoice.paid", actor: BILLING, timestamp: daysAgo(2), details: { amount: 10 } });
  const altered = await append(request, tenant.id, {
    event_type: "invoice.paid",
    actor: BILLING,
    timestamp: daysAgo(1),
    details: { amount: 20 },
  });
  const support = createPlatformUser("support");
  await signInAs(page, support.email, support.password);
  const audit = new AuditPage(page);
  await audit.goto(tenant.id);
  await expect(audit.chainStatus).toContainText("Verified ✓ 3 events");

  // As the database superuser, with the append-only triggers off for one statement.
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL ?? constants.databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete");
    await client.query(`UPDATE audit_events SET details = '{"amount": 2000}' WHERE id = $1`, [altered.id]);
    await client.query("ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update_delete");
    await client.query("COMMIT");
  } finally {
    await client.end();
  }

  await page.reload();
  await audit.waitUntilLoaded();
  await expect(audit.chainStatus).toContainText(`Broken at #${altered.sequence}`);
});
