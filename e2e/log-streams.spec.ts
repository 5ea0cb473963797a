import { append, BILLING } from "./audit-fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { BUCKET, expect, linesUnder, signInAs, test } from "./log-streams-fixtures";

// Fails on any console or page error the journey does not expect (e2e/fixtures.ts, consoleErrors).
test.use({
  allowedConsoleErrors: {
    "adding a stream is tried first, and the server asks for the step-up (as a webhook's new URL does)":
      /\/api\/trpc\/logStreams\.create\?.*status of 401/,
  },
});

/** How many events the tenant's application appends before the stream exists: history to backfill. */
const HISTORY = 40;

test("an admin streams the whole audit log to an S3-compatible store: a wrong secret fails, fixed it backfills in order until the lag is 0; test, pause, edit, delete", async ({
  page,
  request,
  people,
  s3,
  logStreamsPage: streams,
}) => {
  // A failing phase, a backfill, a pause of a batch window and two test batches: longer than most journeys.
  test.setTimeout(120_000);
  const { tenant, person: admin } = await people.tenantWith("admin", "Streams");
  for (let i = 0; i < HISTORY; i++) {
    await append(request, tenant.id, { event_type: "invoice.paid", actor: BILLING, details: { invoice: i } });
  }
  const logLines = async () => (await linesUnder(s3, `cp/${tenant.id}/`)).filter((line) => !line.key.includes("/_test/"));

  await signInAs(page, admin.email, admin.password);
  await streams.goto(tenant.id);
  await expect(streams.emptyState).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Tenant sections" }).getByRole("link", { name: "Log streams" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expectNoSeriousA11yViolations(page);

  // The S3 form, checked before any round trip with the server's own rules.
  await streams.openCreate();
  const form = streams.streamDialog;
  await expect(form.type("Amazon S3")).toBeChecked();
  await expect(form.allEvents).toBeChecked();
  await expect(form.start("From now on")).toBeChecked();
  await expect(form.field("Secret access key")).toHaveAttribute("type", "password");
  await form.name.fill("Security data lake");
  await form.field("Bucket").fill("Not_A_Bucket");
  await form.submit.click();
  await expect(form.error("config.bucket")).toContainText("Bucket must be an S3 bucket name");
  await expect(form.error("config.region")).toHaveText("Region is required");
  await expect(form.field("Bucket")).toBeFocused();
  await expectNoSeriousA11yViolations(page);

  // Everything right but the secret.
  await form.field("Bucket").fill(BUCKET);
  await form.field("Region").fill(s3.region);
  await form.field("Key prefix (optional)").fill("cp");
  await form.field("Endpoint (optional)").fill(s3.endpoint);
  await form.dialog.getByRole("checkbox", { name: /^Path-style addressing/ }).check();
  await form.field("Access key ID").fill(s3.credentials.accessKeyId);
  await form.field("Secret access key").fill("not-the-secret");
  await form.start("The whole log").check();
  await form.submit.click();
  // A receiver's settings are confirmed with the password first, as a webhook's URL is.
  await streams.stepUp.submit(admin.password);
  await expect(form.dialog).toBeHidden();
  await expect(streams.toast.filter({ hasText: "Security data lake was added" })).toBeVisible();

  const row = streams.row("Security data lake");
  await expect(row).toContainText(`Amazon S3 · s3://${BUCKET}/cp at 127.0.0.1`);
  await expect(row.getByTestId("stream-state")).toHaveAttribute("data-state", "active");

  // Its page: the store refuses the batch, and the receiver's answer is there to read.
  await row.getByRole("link", { name: "Security data lake" }).click();
  await expect(streams.detailsHeading).toHaveText("Security data lake");
  await expect(streams.batches.first()).toHaveAttribute("data-status", "failed");
  await expect(streams.batches.first()).toContainText("HTTP 403");
  await expect(page.getByTestId("stream-last-error")).toContainText("SignatureDoesNotMatch");
  await expect(streams.lag).not.toHaveAttribute("data-lag", "0");
  await page.getByRole("button", { name: "Send test batch" }).click();
  await expect(streams.testResult).toHaveAttribute("data-ok", "false");
  await expect(streams.testResult).toContainText("HTTP 403");
  await expectNoSeriousA11yViolations(page);
  expect(await logLines()).toEqual([]);

  // Fixed in the edit form: the stored secret is "set"; the right one replaces it.
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(form.dialog).toHaveAccessibleName("Edit log stream");
  await expect(form.field("Bucket")).toHaveValue(BUCKET);
  await expect(form.field("Secret access key")).toHaveValue("");
  await expect(form.field("Secret access key")).toHaveAccessibleDescription(/^Set\. Leave blank to keep it/);
  await expectNoSeriousA11yViolations(page);
  await form.field("Secret access key").fill(s3.credentials.secretAccessKey);
  await form.submit.click();
  await expect(form.dialog).toBeHidden();

  // The history arrives in batches and the lag, refreshed while behind, reaches 0.
  await expect(streams.lag).toHaveAttribute("data-lag", "0", { timeout: 30_000 });
  await expect(streams.lag).toHaveText("Caught up");
  await expect(streams.batches.first()).toHaveAttribute("data-status", "succeeded");
  await expect(streams.batches.first().getByTestId("batch-status")).toContainText("Sent");
  await expect(streams.state).toHaveAttribute("data-state", "active");

  // What the store holds: every event from the first, once, in order, each chained to the one before.
  const events = await logLines();
  for (const { key } of events) expect(key).toMatch(new RegExp(`^cp/${tenant.id}/\\d{4}/\\d{2}/\\d{2}/\\d+-\\d+\\.ndjson\\.gz$`));
  const sequences = events.map((e) => e.sequence);
  expect(sequences).toEqual(sequences.map((_, i) => i + 1));
  expect(events[0]!.prev_hash).toBe("0".repeat(64));
  for (let i = 1; i < events.length; i++) expect(events[i]!.prev_hash).toBe(events[i - 1]!.hash);
  expect(events.filter((e) => e.event_type === "invoice.paid")).toHaveLength(HISTORY);
  await expect(page.getByTestId("stream-cursor")).toHaveText(`Sequence ${sequences.length}`);

  // A test batch: the receiver's answer is shown, and the object lands beside the log, not in it.
  await page.getByRole("button", { name: "Send test batch" }).click();
  await expect(streams.testResult).toHaveAttribute("data-ok", "true");
  await expect(streams.testResult).toContainText("HTTP 200");
  expect((await linesUnder(s3, `cp/${tenant.id}/_test/`)).map((line) => line.event_type)).toContain("log_stream.test");

  // Paused, it sends nothing for longer than a batch window; resumed, it picks up from its cursor.
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(streams.state).toHaveAttribute("data-state", "paused");
  await append(request, tenant.id, { event_type: "invoice.refunded", actor: BILLING });
  await expect(streams.lag).not.toHaveAttribute("data-lag", "0");
  await page.waitForTimeout(6_000);
  expect((await logLines()).map((e) => e.event_type)).not.toContain("invoice.refunded");
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(streams.state).toHaveAttribute("data-state", "active");
  await expect(streams.lag).toHaveAttribute("data-lag", "0", { timeout: 30_000 });
  expect((await logLines()).map((e) => e.event_type)).toContain("invoice.refunded");

  // A rename leaves the secret blank, so kept: the store still takes a signed test batch.
  await page.getByRole("button", { name: "Edit" }).click();
  await form.name.fill("Data lake (S3)");
  await form.submit.click();
  await expect(form.dialog).toBeHidden();
  await expect(streams.detailsHeading).toHaveText("Data lake (S3)");
  await page.getByRole("button", { name: "Send test batch" }).click();
  await expect(streams.testResult).toHaveAttribute("data-ok", "true");

  // Deleting asks first, then goes back to the (empty) list.
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(streams.confirmDialog).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await streams.confirmDialog.getByRole("button", { name: "Delete stream" }).click();
  await page.waitForURL(`**/tenants/${tenant.id}/log-streams`);
  await expect(streams.emptyState).toBeVisible();
});
