import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { expectNoSeriousA11yViolations } from "./axe";
import { OPERATOR_TOKEN } from "./constants";
import { append, BILLING, daysAgo, utcInput } from "./audit-fixtures";
import { createPlatformUser, expect, signInAs, test, uniqueName } from "./identity";
import { AuditPage } from "./pages/audit-page";

// Every journey here fails on any console or page error (a hydration mismatch included).
test.use({
  allowedConsoleErrors: {
    "the bad-filter journey asks for filters the API refuses; the page shows the 400 on the fields":
      /\/api\/trpc\/audit\.list\?.*status of 400/,
  },
});

test("support staff filter by type and date, open an event, export CSV and the file matches", async ({ page, people, request }) => {
  const tenant = await people.createTenant(uniqueName("Audit journey"));
  const refunded = await append(request, tenant.id, {
    event_type: "invoice.refunded",
    actor: BILLING,
    timestamp: daysAgo(2),
    metadata: { ip_address: "203.0.113.7", user_agent: "billing/2.1" },
    target: { type: "invoice", id: "inv_1002" },
    details: { amount: 1250, currency: "EUR", reason: 'duplicate, "double" charge' },
  });
  const paid = await append(request, tenant.id, {
    event_type: "invoice.paid",
    actor: BILLING,
    timestamp: daysAgo(3),
    target: { type: "invoice", id: "inv_1002" },
    details: { amount: 1250, currency: "EUR" },
  });
  const paidOlder = await append(request, tenant.id, {
    event_type: "invoice.paid",
    actor: BILLING,
    timestamp: daysAgo(10),
    details: { amount: 99 },
  });
  const paidOldest = await append(request, tenant.id, {
    event_type: "invoice.paid",
    actor: BILLING,
    timestamp: daysAgo(40),
    details: { amount: 7 },
  });
  await append(request, tenant.id, {
    event_type: "report.viewed",
    actor: { id: "analyst", email: "analyst@example.com" },
    timestamp: daysAgo(1),
  });

  const support = createPlatformUser("support");
  await signInAs(page, support.email, support.password);
  const audit = new AuditPage(page);
  await audit.goto(tenant.id);

  // Everything, newest first: the tenant's own creation (now), then the appended events by time.
  await expect(audit.rows).toHaveCount(6);
  await expect(audit.rows.first()).toContainText("tenant.created");
  await expect(audit.chainStatus).toContainText("Verified ✓ 6 events");
  await expectNoSeriousA11yViolations(page);

  // By type (a prefix) and a preset: the week's invoices only.
  await audit.filter({ type: "invoice.*", range: "Last 7 days" });
  await audit.expectShown([refunded.id, paid.id]);
  await expect(audit.pageRange).toHaveText("Showing 1–2 of 2");
  expect(new URL(page.url()).searchParams.get("type")).toBe("invoice.*");
  expect(new URL(page.url()).searchParams.get("range")).toBe("7d");

  // The link keeps the filters.
  await page.reload();
  await audit.waitUntilLoaded();
  await expect(audit.eventType).toHaveValue("invoice.*");
  await expect(audit.range).toHaveValue("7d");
  await audit.expectShown([refunded.id, paid.id]);

  // The drawer shows the whole event.
  await audit.open("invoice.refunded");
  const drawer = audit.drawer;
  await expect(drawer.dialog).toHaveAccessibleName("invoice.refunded");
  await expect(drawer.exactTime).toHaveAttribute("datetime", refunded.timestamp);
  await expect(drawer.details).toContainText('"reason": "duplicate, \\"double\\" charge"');
  await expect(drawer.details).toContainText('"amount": 1250');
  await expect(drawer.value("IP address")).toHaveText("203.0.113.7");
  await expect(drawer.value("User agent")).toHaveText("billing/2.1");
  await expect(drawer.value("Target")).toContainText("inv_1002");
  await expect(drawer.value("Sequence")).toHaveText(/^#\d+$/);
  await expect(drawer.value("Hash")).toHaveText(/^[0-9a-f]{64}$/);
  await expect(drawer.value("Previous hash")).toHaveText(/^[0-9a-f]{64}$/);
  await expect(drawer.copyButton("hash")).toBeVisible();
  expect(new URL(page.url()).searchParams.get("event")).toBe(refunded.id);
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Escape");
  await expect(drawer.dialog).toBeHidden();
  await expect(audit.eventButton("invoice.refunded")).toBeFocused();

  // The CSV export holds exactly the filtered events, in the table's order.
  const download = await audit.download(audit.exportCsv);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const records = parse(readFileSync(await download.path(), "utf8"), { columns: true, bom: true }) as Array<Record<string, string>>;
  expect(Object.keys(records[0] ?? {})).toEqual([
    "id",
    "event_type",
    "actor_id",
    "actor_email",
    "timestamp",
    "ip_address",
    "user_agent",
    "target_type",
    "target_id",
    "details",
    "sequence",
    "hash",
    "prev_hash",
    "target_name",
    "chain_version",
    "source_type",
    "source_token_id",
    "source_user_id",
  ]);
  expect(records.map((r) => r.id)).toEqual([refunded.id, paid.id]);
  expect(records.map((r) => r.id)).toEqual(await audit.shownIds());
  expect(records.map((r) => r.event_type)).toEqual(["invoice.refunded", "invoice.paid"]);
  expect(records.map((r) => r.actor_email)).toEqual([BILLING.email, BILLING.email]);
  expect(records[0]!.ip_address).toBe("203.0.113.7");
  // Appended with the operator's token: the application's events say so (issue 21, finding 6).
  expect(records.map((r) => r.source_type)).toEqual(["api", "api"]);
  expect(JSON.parse(records[0]!.details!)).toEqual({ amount: 1250, currency: "EUR", reason: 'duplicate, "double" charge' });

  // A custom range (UTC, end excluded) finds the older invoices instead.
  await audit.filter({ range: "Custom range", from: utcInput(45), to: utcInput(5) });
  await audit.expectShown([paidOlder.id, paidOldest.id]);
  const older = await audit.download(audit.exportCsv);
  const olderRecords = parse(readFileSync(await older.path(), "utf8"), { columns: true, bom: true }) as Array<Record<string, string>>;
  expect(olderRecords.map((r) => r.id)).toEqual([paidOlder.id, paidOldest.id]);
});

test("a filter the API refuses is shown on its field, and nothing is exported", async ({ page, people }) => {
  const tenant = await people.createTenant(uniqueName("Audit bad filter"));
  const support = createPlatformUser("support");
  await signInAs(page, support.email, support.password);
  const audit = new AuditPage(page);
  await audit.goto(tenant.id);
  await expect(audit.rows).toHaveCount(1);

  await audit.filter({ type: "Invoice Paid" });
  await expect(audit.error("type")).toContainText("Event type must be event kinds separated by commas");
  await expect(audit.eventType).toHaveAttribute("aria-invalid", "true");
  await expect(audit.exportCsv).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeDisabled();

  await audit.filter({ range: "Custom range", type: "", from: utcInput(1), to: utcInput(3) });
  await expect(audit.error("from")).toContainText("Start date must not be after end_date");
  await expectNoSeriousA11yViolations(page);
});

test("pages follow the cursor, and the link keeps the filters and the page", async ({ page, people, request }) => {
  const tenant = await people.createTenant(uniqueName("Audit paging"));
  const ids: string[] = [];
  for (let i = 0; i < 27; i++) {
    const actor = i % 3 === 0 ? { id: "robot", email: "robot@example.com" } : BILLING;
    const event = await append(request, tenant.id, { event_type: "invoice.paid", actor, timestamp: daysAgo(1 + i / 24) });
    ids.push(event.id);
  }
  const support = createPlatformUser("support");
  await signInAs(page, support.email, support.password);
  const audit = new AuditPage(page);
  await audit.goto(tenant.id);

  await audit.filter({ actor: BILLING.id, type: "invoice.paid" });
  const billing = ids.filter((_, i) => i % 3 !== 0);
  await audit.expectShown(billing.slice(0, 18));
  await expect(audit.pageRange).toHaveText("Showing 1–18 of 18");

  await audit.filter({ actor: "" });
  await audit.expectShown(ids.slice(0, 25));
  await expect(audit.pageRange).toHaveText("Showing 1–25 of 27");
  await page.getByRole("button", { name: "Next" }).click();
  await audit.expectShown(ids.slice(25));
  await expect(audit.pageRange).toHaveText("Showing 26–27 of 27");
  expect(new URL(page.url()).searchParams.get("cursor")).toBeTruthy();

  await page.reload();
  await audit.waitUntilLoaded();
  await audit.expectShown(ids.slice(25));
  await expect(audit.pageRange).toHaveText("Showing 26–27 of 27");
  await expect(audit.eventType).toHaveValue("invoice.paid");

  await page.getByRole("button", { name: "Previous" }).click();
  await audit.expectShown(ids.slice(0, 25));
  await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();

  // A link to one event opens it even when it is not on the page shown.
  await audit.goto(tenant.id, `event=${ids[26]}`);
  await expect(audit.drawer.dialog).toHaveAccessibleName("invoice.paid");
  await expect(audit.drawer.value("Event ID")).toHaveText(ids[26]!);
  await audit.drawer.closeButton.click();
  await expect(audit.drawer.dialog).toBeHidden();
  expect(new URL(page.url()).searchParams.has("event")).toBe(false);
});

test("support staff filter by clicking, see targets by name with links, find anyone by email; rows come with the HTML", async ({
  page,
  people,
  request,
}) => {
  const operatorHeaders = { Authorization: `Bearer ${OPERATOR_TOKEN}` };
  const tenant = await people.createTenant(uniqueName("Audit names"));
  const hookUrl = `https://hooks.example.test/${uniqueName("audit").replace(/\s+/g, "-")}`;
  const hook = await request.post(`/api/v1/tenants/${tenant.id}/webhooks`, {
    headers: operatorHeaders,
    data: { url: hookUrl, events: ["tenant.created"] },
  });
  expect(hook.status(), await hook.text()).toBe(201);
  const hookId = ((await hook.json()) as { id: string }).id;
  const paid = await append(request, tenant.id, { event_type: "invoice.paid", actor: BILLING, timestamp: daysAgo(1) });
  await append(request, tenant.id, { event_type: "report.viewed", actor: { id: "analyst", email: "analyst@example.com" } });
  const { user: me } = (await (await request.get("/api/v1/me", { headers: operatorHeaders })).json()) as {
    user: { id: string; email: string };
  };

  const support = createPlatformUser("support");
  await signInAs(page, support.email, support.password);
  const audit = new AuditPage(page);

  // The first page is in the HTML the server sends, before any script runs.
  const html = await (await page.request.get(`/tenants/${tenant.id}/audit`)).text();
  expect(html).toContain(`data-event-id="${paid.id}"`);
  expect(html).toContain(hookUrl);

  await audit.goto(tenant.id);
  await expect(audit.rows).toHaveCount(4);

  // Targets by the name they had when the event was written, linked while they exist.
  const hookTarget = audit.targetCells().filter({ hasText: hookUrl });
  await expect(hookTarget).toContainText(`webhook ${hookUrl}`);
  await expect(audit.targetCells().filter({ hasText: tenant.name }).getByRole("link", { name: tenant.name })).toHaveAttribute(
    "href",
    `/tenants/${tenant.id}`,
  );
  await expectNoSeriousA11yViolations(page);

  // Clicking an actor filters by them; clicking an event type filters by it.
  await audit.follow(audit.actorLink(BILLING.email));
  await audit.waitUntilLoaded();
  expect(new URL(page.url()).searchParams.get("actor")).toBe(BILLING.id);
  await audit.expectShown([paid.id]);
  await audit.filter({ actor: "" });
  await audit.follow(audit.typeLink("webhook.created"));
  await audit.waitUntilLoaded();
  expect(new URL(page.url()).searchParams.get("type")).toBe("webhook.created");
  await expect(audit.rows).toHaveCount(1);

  // The target's link leads to the webhook.
  await audit.follow(audit.targetCells().getByRole("link", { name: hookUrl }));
  await expect(page).toHaveURL(new RegExp(`/tenants/${tenant.id}/webhooks/${hookId}$`));
  await page.goBack();
  await audit.waitUntilLoaded();

  // An operator is no member of the tenant: their email still finds their events, in any case.
  await audit.filter({ type: "", actor: me.email.toUpperCase() });
  expect(new URL(page.url()).searchParams.get("actor")).toBe(me.email.toUpperCase());
  await expect(audit.rows).toHaveCount(2);
  await expect(audit.rows.filter({ hasText: "tenant.created" })).toHaveCount(1);
  await expect(audit.rows.filter({ hasText: "webhook.created" })).toHaveCount(1);

  // So does the email of an application's own actor, who has no account here (issue 26, item 3).
  await audit.filter({ actor: "Billing@Example.COM" });
  await audit.expectShown([paid.id]);
  await page.reload();
  await audit.waitUntilLoaded();
  await audit.expectShown([paid.id]);

  // An email nobody acted with finds nothing.
  await audit.filter({ actor: "nobody-here@example.com" });
  await expect(page.getByRole("heading", { name: "No events match these filters" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // On a phone the filters fold behind a button (saying how many are on); the desktop shows them.
  await expect(audit.filtersButton).toBeHidden();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(audit.filtersButton).toHaveText("Filters (1)");
  await expect(audit.filtersButton).toHaveAttribute("aria-expanded", "false");
  await expect(audit.actor).toBeHidden();
  await audit.filtersButton.click();
  await expect(audit.actor).toHaveValue("nobody-here@example.com");
  await audit.actor.fill("");
  await audit.applyButton.click();
  // Applied: the events show and the filters fold away again.
  await expect(audit.rows).toHaveCount(4);
  await expect(audit.actor).toBeHidden();
  await expect(audit.filtersButton).toHaveText("Filters");
  expect(new URL(page.url()).searchParams.has("actor")).toBe(false);
});

test("support finds an actor's events across tenants, pages, exports them, and opens one in its tenant's log", async ({
  page,
  people,
  request,
}) => {
  const actor = { id: uniqueName("crm").replace(/\s+/g, "-"), email: `${uniqueName("someone").replace(/\s+/g, "-")}@example.com` };
  const acme = await people.createTenant(uniqueName("Search Acme"));
  const beta = await people.createTenant(uniqueName("Search Beta"));
  // 25 events in Acme (a page), then the newest one in Beta: the search's first page spans both tenants.
  const batch = await request.post(`/api/v1/tenants/${acme.id}/audit/batch`, {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
    data: { events: Array.from({ length: 25 }, (_, i) => ({ event_type: "crm.note_added", actor, timestamp: daysAgo(2 + i / 24) })) },
  });
  expect(batch.status(), await batch.text()).toBe(201);
  const newest = await append(request, beta.id, {
    event_type: "crm.deal_won",
    actor,
    timestamp: daysAgo(1),
    target: { type: "deal", id: "deal-7" },
  });

  const support = createPlatformUser("support");
  await signInAs(page, support.email, support.password);
  await page.getByRole("complementary").getByRole("link", { name: "Audit search" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit search" })).toBeVisible();
  const form = page.getByRole("search", { name: "Search audit events" });
  await expect(form.getByRole("button", { name: "Search" })).toBeEnabled();
  await form.getByLabel("Actor").fill(actor.email.toUpperCase());
  await form.getByRole("button", { name: "Search" }).click();

  const rows = page.getByRole("table", { name: "Audit search results" }).getByTestId("search-row");
  await expect(rows).toHaveCount(25);
  await expect(page.getByTestId("page-range")).toHaveText("Showing 1–25 of 26");
  await expect(rows.first()).toContainText(beta.name);
  await expect(rows.nth(1)).toContainText(acme.name);
  await expectNoSeriousA11yViolations(page);

  // The next page, by cursor, and the export of the whole search with the tenants named.
  await page.getByRole("button", { name: "Next" }).click();
  await expect(rows).toHaveCount(1);
  expect(new URL(page.url()).searchParams.get("cursor")).toBeTruthy();
  const download = await new AuditPage(page).download(page.getByRole("link", { name: "Export CSV" }));
  const records = parse(readFileSync(await download.path(), "utf8"), { columns: true, bom: true }) as Array<Record<string, string>>;
  expect(records).toHaveLength(26);
  expect(records[0]).toMatchObject({ tenant_id: beta.id, tenant_name: beta.name, id: newest.id, actor_email: actor.email });

  // A result leads to its tenant's audit log, opened on the event.
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(rows).toHaveCount(25);
  await rows.first().getByRole("link", { name: beta.name }).click();
  await expect(page).toHaveURL(new RegExp(`/tenants/${beta.id}/audit\\?event=${newest.id}$`));
  await expect(new AuditPage(page).drawer.dialog).toHaveAccessibleName("crm.deal_won");
});
