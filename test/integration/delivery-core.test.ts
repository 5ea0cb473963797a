/**
 * The delivery core with a kind that is not webhooks: notices to mailboxes, on tables of their own
 * (created here, in this file's database) and a sink that answers from a script instead of the
 * network. The core claims, sends, retries by the kind's schedule, logs every attempt, turns a
 * refusing destination off through the kind, and wakes on the kind's channel.
 */
import { beforeAll, expect, test } from "vitest";
import { database, type Database } from "../../server/db/client.ts";
import type { SqlRunner } from "../../server/db/sql.ts";
import { until } from "../support/until.ts";
import { startDispatcher } from "../../server/delivery/dispatcher.ts";
import { deliverDue } from "../../server/delivery/engine.ts";
import { defineDeliveryKind, SUCCEEDED, type Sent } from "../../server/delivery/kind.ts";

// Shaped as kind.ts asks of every kind, pace and order columns included (unused here).
const TABLES = `
  CREATE TABLE mailboxes (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(), address text NOT NULL,
    enabled boolean NOT NULL DEFAULT true, disabled_reason text, failing_since timestamptz,
    rate_limit_per_second int, ordering text NOT NULL DEFAULT 'unordered', paced_until timestamptz);
  CREATE TABLE notices (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(), mailbox_id uuid NOT NULL REFERENCES mailboxes ON DELETE CASCADE,
    subject text NOT NULL, status text NOT NULL DEFAULT 'pending', attempt_count int NOT NULL DEFAULT 0,
    next_attempt_at timestamptz DEFAULT now(), locked_until timestamptz, last_attempt_at timestamptz,
    last_response_status int, last_error text, updated_at timestamptz NOT NULL DEFAULT now(), seq bigserial);
  CREATE TABLE notice_attempts (
    delivery_id uuid NOT NULL REFERENCES notices ON DELETE CASCADE, attempt int NOT NULL, started_at timestamptz NOT NULL,
    duration_ms int NOT NULL, response_status int, response_body text, error text, next_attempt_at timestamptz,
    request_url text, request_headers jsonb, response_headers jsonb, UNIQUE (delivery_id, attempt));`;

/** What the pretend mail server answers each address, attempt after attempt (the last one repeats). */
const SCRIPT: Record<string, number[]> = {
  "ok@example.test": [250],
  "flaky@example.test": [451, 250],
  "down@example.test": [451],
  "gone@example.test": [550],
};
const sent: { address: string; subject: string }[] = [];
const turnedOff: { mailbox: string; reason: string }[] = [];

interface Notice {
  subject: string;
  address: string;
}

const notices = defineDeliveryKind<Notice>({
  name: "notice",
  queue: {
    items: "notices",
    attempts: "notice_attempts",
    destinations: "mailboxes",
    destinationKey: "mailbox_id",
    wakeChannel: "notices_due",
  },
  columns: "d.subject, dest.address",
  sink: {
    async send(notice): Promise<Sent> {
      sent.push({ address: notice.address, subject: notice.subject });
      const answers = SCRIPT[notice.address]!;
      const status = answers[Math.min(notice.attempt_count, answers.length - 1)]!;
      return {
        status,
        body: `${status} from the pretend server`,
        error: null,
        request: { url: `mailto:${notice.address}`, headers: {} },
        responseHeaders: null,
      };
    },
    classify: (result) =>
      result.status === 250
        ? SUCCEEDED
        : result.status === 550
          ? { outcome: "gone", reason: "No such mailbox" }
          : { outcome: "failed", error: `SMTP ${result.status}`, retryAfter: null },
  },
  retrySchedule: () => [60],
  destination: {
    disabledError: "mailbox disabled",
    failingDaysBeforeDisable: 5,
    async disable(tx: SqlRunner, notice, reason) {
      const flipped = await tx.query(
        `UPDATE mailboxes SET enabled = false, disabled_reason = $2 WHERE id = $1::uuid AND enabled RETURNING id`,
        [notice.destination_id, reason],
      );
      if (flipped.length) turnedOff.push({ mailbox: notice.address, reason });
    },
  },
});

let db: Database;
beforeAll(async () => {
  db = await database();
  await db.sql.exec(TABLES);
});

async function mailbox(address: string, failingSince: Date | null = null): Promise<string> {
  const [row] = await db.sql.query<{ id: string }>(`INSERT INTO mailboxes (address, failing_since) VALUES ($1, $2) RETURNING id`, [
    address,
    failingSince,
  ]);
  return row!.id;
}

async function notice(mailboxId: string, subject: string, dueAt = new Date()): Promise<string> {
  const [row] = await db.sql.query<{ id: string }>(
    `INSERT INTO notices (mailbox_id, subject, next_attempt_at) VALUES ($1, $2, $3) RETURNING id`,
    [mailboxId, subject, dueAt],
  );
  return row!.id;
}

async function stateOf(id: string) {
  const [row] = await db.sql.query<{
    status: string;
    attempt_count: number;
    last_error: string | null;
    last_response_status: number | null;
  }>(`SELECT status, attempt_count, last_error, last_response_status FROM notices WHERE id = $1`, [id]);
  const attempts = await db.sql.query<{ attempt: number; response_status: number | null; error: string | null; request_url: string }>(
    `SELECT attempt, response_status, error, request_url FROM notice_attempts WHERE delivery_id = $1 ORDER BY attempt`,
    [id],
  );
  return { ...row!, attempts };
}

/** Makes every waiting notice due now, as if its retry time had come. */
const timePasses = () => db.sql.query(`UPDATE notices SET next_attempt_at = now() WHERE status IN ('pending', 'failed')`);

test("another kind on its own tables: sent once, retried by its schedule, exhausted after it, every attempt logged", async () => {
  const ok = await notice(await mailbox("ok@example.test"), "welcome");
  const flaky = await notice(await mailbox("flaky@example.test"), "welcome");
  const down = await notice(await mailbox("down@example.test"), "welcome");

  expect(await deliverDue(db, notices)).toMatchObject({ claimed: 3, succeeded: 1, failed: 2, exhausted: 0 });
  expect(await stateOf(ok)).toMatchObject({ status: "succeeded", attempt_count: 1, attempts: [{ attempt: 1, response_status: 250 }] });
  expect(await stateOf(flaky)).toMatchObject({ status: "failed", attempt_count: 1, last_error: "SMTP 451" });
  expect(await deliverDue(db, notices)).toMatchObject({ claimed: 0 });

  await timePasses();
  expect(await deliverDue(db, notices)).toMatchObject({ claimed: 2, succeeded: 1, exhausted: 1 });
  expect(await stateOf(flaky)).toMatchObject({
    status: "succeeded",
    attempts: [
      { attempt: 1, response_status: 451, error: "SMTP 451", request_url: "mailto:flaky@example.test" },
      { attempt: 2, response_status: 250, error: null },
    ],
  });
  expect(await stateOf(down)).toMatchObject({ status: "exhausted", attempt_count: 2, last_error: "SMTP 451" });
  expect(sent.filter((s) => s.address === "ok@example.test")).toHaveLength(1);
});

test("a refusing destination is turned off through the kind, and nothing more is sent to it", async () => {
  const gone = await mailbox("gone@example.test");
  const first = await notice(gone, "first");
  await deliverDue(db, notices, { concurrency: 1, batchSize: 1 });
  const second = await notice(gone, "second");

  expect(await stateOf(first)).toMatchObject({
    status: "cancelled",
    last_error: "mailbox disabled: No such mailbox",
    last_response_status: 550,
    attempts: [{ attempt: 1, response_status: 550 }],
  });
  expect(turnedOff).toEqual([{ mailbox: "gone@example.test", reason: "No such mailbox" }]);
  const before = sent.length;
  expect(await deliverDue(db, notices)).toMatchObject({ claimed: 1 });
  expect(await stateOf(second)).toMatchObject({ status: "cancelled", last_error: "mailbox disabled", attempts: [] });
  expect(sent).toHaveLength(before);
});

test("a destination failing for the kind's days is turned off with the reason, and what is due cancelled", async () => {
  const since = new Date(Date.now() - 6 * 86_400_000);
  const down = await mailbox("down@example.test", since);
  const a = await notice(down, "a");
  const later = await notice(down, "later", new Date(Date.now() + 3_600_000));
  expect(await deliverDue(db, notices)).toMatchObject({ claimed: 1, disabled: 1 });

  const reason = `Every delivery failed for 5 days (since ${since.toISOString()})`;
  expect(turnedOff).toContainEqual({ mailbox: "down@example.test", reason });
  const states = [await stateOf(a), await stateOf(later)];
  expect(states.map((s) => s.status)).toEqual(["cancelled", "cancelled"]);
  expect(states.flatMap((s) => s.attempts)).toHaveLength(1);
});

test("the kind's dispatcher sends right after a commit notifies its channel", async () => {
  const stop = await startDispatcher(db, notices);
  try {
    const id = await db.sql.transaction(async (tx) => {
      const created = await tx.query<{ id: string }>(`INSERT INTO notices (mailbox_id, subject) VALUES ($1, 'woken') RETURNING id`, [
        await mailbox("ok@example.test"),
      ]);
      await tx.query(`SELECT pg_notify('notices_due', '')::text AS notified`);
      return created[0]!.id;
    });
    await until(
      () => stateOf(id),
      (state) => state.status === "succeeded",
      { timeoutMs: 5000 },
    );
    expect(await stateOf(id)).toMatchObject({ status: "succeeded", attempt_count: 1 });
  } finally {
    await stop();
  }
});
