/**
 * Periodic work runs the same whichever trigger a deployment uses: the in-process ticker, or the
 * cron route with INTERNAL_CRON=off (which once ran only deliveries and the idempotency purge, so
 * months were never created ahead, digests never signed, retention never run).
 */
import { beforeEach, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { until } from "../support/until.ts";
import { client } from "../support/fixtures.ts";
import { connectPostgres, database } from "../../server/db/client.ts";
import { loadJobs } from "../../server/app/features.ts";
import { startInternalCron } from "../../server/app/cron.ts";
import { runJobs, type JobsRun } from "../../server/jobs/runner.ts";
import { MINUTE, type Job } from "../../server/jobs/job.ts";

process.env.CRON_SECRET = "cron-secret-for-the-jobs-test-0123";
const cron = { authorization: `Bearer ${process.env.CRON_SECRET}` };

const api = apiServer();
beforeEach(async () => {
  await (await database()).sql.query(`DELETE FROM job_runs`);
});

const names = (await loadJobs()).map((job) => job.name);
const outcomes = (run: JobsRun) => Object.fromEntries(run.jobs.map((job) => [job.name, job.outcome]));
const finishedJobs = async () =>
  (
    await (
      await database()
    ).sql.query<{ name: string }>(`SELECT name FROM job_runs WHERE finished_at IS NOT NULL AND error IS NULL ORDER BY name`)
  ).map((row) => row.name);

test("the registry holds every feature's jobs, each once", () => {
  expect(new Set(names).size).toBe(names.length);
  for (const expected of [
    "rest.idempotency_keys_purge",
    "auth.failures_purge",
    "auth.rate_limit_windows_purge",
    "auth.mfa_pending_purge",
    "sso.metadata_recheck",
    "sso.saml_assertions_purge",
    "sso.signin_requests_purge",
    "sso.broker_grants_purge",
    "sso.certificate_expiry",
    "audit.partitions_ahead",
    "audit.retention",
    "audit.digests",
    "webhooks.deliveries",
  ])
    expect(names).toContain(expected);
});

describe("the cron route", () => {
  test("runs every job once, and none again before its interval", async () => {
    const first = await client(api.url).post("/api/cron", undefined, cron);
    expect(first.status).toBe(200);
    const run = first.json as JobsRun;
    expect(run.jobs.map((job) => job.name)).toEqual(names);
    expect(outcomes(run)).toEqual(Object.fromEntries(names.map((name) => [name, "ran"])));
    expect(await finishedJobs()).toEqual([...names].sort());

    const second = (await client(api.url).get("/api/cron", cron)).json as JobsRun;
    expect(outcomes(second)).toEqual(Object.fromEntries(names.map((name) => [name, "not_due"])));
  });

  test("its old path (/api/cron/webhooks) runs the housekeeping too, not only deliveries", async () => {
    const db = await database();
    const [tenant] = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('cron') RETURNING id`);
    const [provider] = await db.sql.query<{ id: string }>(
      `INSERT INTO sso_providers (tenant_id, provider_type, name, metadata_url) VALUES ($1, 'oidc', 'p', 'https://idp.example/x') RETURNING id`,
      [tenant!.id],
    );
    await db.sql.query(
      `INSERT INTO sso_signin_requests (state, tenant_id, provider_id, protocol, purpose, nonce, code_verifier, request_id, binding_hash, expires_at)
       VALUES ('expired', $1, $2, 'oidc', 'console', 'n', 'v', '_r', 'b', now() - interval '2 minutes')`,
      [tenant!.id, provider!.id],
    );
    // Next month's partition, which the partitions job must (re)create.
    const [ahead] = await db.sql.query<{ name: string }>(
      `SELECT 'audit_events_' || to_char(now() + interval '1 month', 'YYYY_MM') AS name`,
    );
    await db.sql.query(`DROP TABLE ${ahead!.name}`);

    const res = await client(api.url).get("/api/cron/webhooks", cron);
    expect(res.status).toBe(200);
    expect(await db.sql.query(`SELECT 1 FROM sso_signin_requests WHERE state = 'expired'`)).toEqual([]);
    expect(await db.sql.query(`SELECT 1 FROM pg_class WHERE relname = $1`, [ahead!.name])).toHaveLength(1);
    expect(await finishedJobs()).toEqual([...names].sort());
  });

  test("401 without the secret, and nothing runs", async () => {
    const res = await client(api.url).post("/api/cron");
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("unauthenticated");
    expect(await finishedJobs()).toEqual([]);
  });
});

test("the in-process ticker runs every job of the same registry", async () => {
  // Its own connection, as another instance would have: this process's cron runs above are not its own.
  const instance = connectPostgres(process.env.DATABASE_URL!, 2);
  const stop = await startInternalCron(instance);
  try {
    await until(finishedJobs, (finished) => finished.length >= names.length, { timeoutMs: 20_000, intervalMs: 100 });
  } finally {
    await stop();
    await instance.close();
  }
  expect(await finishedJobs()).toEqual([...names].sort());
});

describe("the runner", () => {
  test("two instances asking at once start each job once (the claim is in the database)", async () => {
    const other = connectPostgres(process.env.DATABASE_URL!, 2);
    try {
      let runs = 0;
      const job: Job = { name: "test.counted", every: MINUTE, run: async () => ({ runs: ++runs }) };
      const [a, b] = await Promise.all([runJobs(await database(), [job], { budgetMs: 1000 }), runJobs(other, [job], { budgetMs: 1000 })]);
      expect([a.jobs[0]!.outcome, b.jobs[0]!.outcome].sort()).toEqual(["not_due", "ran"]);
      expect(runs).toBe(1);
    } finally {
      await other.close();
    }
  });

  test("a job that throws is recorded as failed and the next still runs", async () => {
    const failing: Job = {
      name: "test.failing",
      every: MINUTE,
      run: async () => {
        throw new Error("the receiver is down");
      },
    };
    const fine: Job = { name: "test.fine", every: MINUTE, run: async () => ({ done: 1 }) };
    const run = await runJobs(await database(), [failing, fine], { budgetMs: 1000 });
    expect(run.jobs).toMatchObject([
      { name: "test.failing", outcome: "failed", error: "the receiver is down" },
      { name: "test.fine", outcome: "ran", summary: { done: 1 } },
    ]);
    const rows = await (
      await database()
    ).sql.query<{ name: string; error: string | null }>(`SELECT name, error FROM job_runs ORDER BY name`);
    expect(rows).toEqual([
      { name: "test.failing", error: "the receiver is down" },
      { name: "test.fine", error: null },
    ]);
  });
});
