/**
 * Seeds audit events for the audit benchmark, through the real chain trigger (so every row has
 * its sequence, prev_hash and hash, exactly as the app writes them).
 *
 *   node --import tsx --import ./scripts/server-only.mjs bench/audit-seed.ts <database url> [--tenants 50] [--events 1000000]
 *                                                         [--export-events 1000000]
 *
 * `--events` are spread evenly over `--tenants` tenants ("Audit bench tenant N"), a year back from
 * now, each recorded when it happened (so they fill twelve monthly partitions, of the 84 past months
 * created first, as seven years of operation leave them); `--export-events` go to one more tenant ("Audit bench export"), the export scenario's, and
 * `--big-events` to one more ("Audit bench big"), the large tenant's list scenarios.
 * Kinds: a realistic mix of 12 (user.* are about half); 200 actors per tenant. Rows are inserted
 * in batches of 20,000 per statement, two tenants at a time.
 */
import { parseArgs } from "node:util";
import pg from "pg";

export const KINDS = [
  "user.login",
  "user.login",
  "user.login",
  "user.login_failed",
  "user.created",
  "user.updated",
  "user.step_up",
  "api_token.created",
  "api_token.revoked",
  "sso_provider.updated",
  "invoice.paid",
  "document.shared",
  "document.viewed",
  "document.viewed",
  "project.archived",
  "webhook.updated",
];

const BATCH = 20_000;

/** Inserts `count` events for one tenant, newest `now()`, oldest a year back, in batches. */
export async function seedTenant(pool: pg.Pool, tenantId: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    // g runs oldest → newest, so sequence order matches time order, as in real use.
    await pool.query(
      `INSERT INTO audit_events (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent,
                                 target_type, target_id, details, "timestamp", recorded_at)
       SELECT $1::uuid, ($2::text[])[1 + (g * 7919) % array_length($2::text[], 1)],
              -- actor from g / 16, kind from g mod 16: every actor sees every kind
              'user_' || (g / 16 * 31) % 200, 'user' || (g / 16 * 31) % 200 || '@example.com',
              '203.0.113.' || g % 250, 'Mozilla/5.0 (X11; Linux x86_64) bench',
              'document', 'doc_' || g % 5000,
              jsonb_build_object('request', g, 'path', '/projects/' || g % 97, 'changes', jsonb_build_array('name', 'owner')),
              t, t
       FROM generate_series($4::bigint, $5::bigint) AS g,
            LATERAL (SELECT date_trunc('milliseconds', now() - make_interval(secs => (($3::bigint - g)::float8 / $3::bigint) * 365 * 86400)) AS t) AS at
       ORDER BY g`,
      [tenantId, KINDS, count, done + 1, done + n],
    );
  }
}

/**
 * Monthly partitions back `months` months from this one, as seven years of operation leave them
 * (housekeeping only creates months ahead): the planner sees as many partitions as in production.
 */
export async function createPastPartitions(pool: pg.Pool, months: number): Promise<void> {
  await pool.query(
    `DO $past$
     DECLARE month DATE := (date_trunc('month', now() AT TIME ZONE 'UTC') - make_interval(months => ${Math.floor(months)}))::date; name TEXT;
     BEGIN
       WHILE month < date_trunc('month', now() AT TIME ZONE 'UTC')::date LOOP
         name := 'audit_events_' || to_char(month, 'YYYY_MM');
         IF to_regclass(format('%I', name)) IS NULL THEN
           EXECUTE format('CREATE TABLE %I PARTITION OF audit_events FOR VALUES FROM (%L) TO (%L)', name,
             month::timestamp AT TIME ZONE 'UTC', (month + INTERVAL '1 month')::timestamp AT TIME ZONE 'UTC');
           PERFORM audit_events_guard_partition(format('%I', name)::regclass);
         END IF;
         month := (month + INTERVAL '1 month')::date;
       END LOOP;
     END $past$`,
  );
}

export async function seedAudit(
  databaseUrl: string,
  options: { tenants: number; events: number; exportEvents: number; bigEvents?: number },
  log: (message: string) => void = console.log,
): Promise<{ tenantIds: string[]; exportTenantId: string; bigTenantId?: string }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    await createPastPartitions(pool, 84);
    const { rows } = await pool.query<{ id: string; name: string }>(
      `INSERT INTO tenants (name) SELECT 'Audit bench tenant ' || g FROM generate_series(1, $1) g
       UNION ALL SELECT 'Audit bench export' UNION ALL SELECT 'Audit bench big' WHERE $2 RETURNING id, name`,
      [options.tenants, Boolean(options.bigEvents)],
    );
    const exportTenantId = rows.find((r) => r.name === "Audit bench export")!.id;
    const bigTenantId = rows.find((r) => r.name === "Audit bench big")?.id;
    const tenantIds = rows.filter((r) => r.id !== exportTenantId && r.id !== bigTenantId).map((r) => r.id);
    const perTenant = Math.floor(options.events / options.tenants);
    const jobs = [
      ...(bigTenantId ? [{ id: bigTenantId, count: options.bigEvents! }] : []),
      ...tenantIds.map((id) => ({ id, count: perTenant })),
      { id: exportTenantId, count: options.exportEvents },
    ];
    const started = Date.now();
    let next = 0;
    let inserted = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        await seedTenant(pool, job.id, job.count);
        inserted += job.count;
        if (inserted % 200_000 < job.count) log(`seeded ${inserted.toLocaleString("en")} events`);
      }
    };
    await Promise.all([worker(), worker()]);
    await pool.query("VACUUM ANALYZE");
    log(`seeded ${inserted.toLocaleString("en")} events in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return { tenantIds, exportTenantId, bigTenantId };
  } finally {
    await pool.end();
  }
}

if (import.meta.filename === process.argv[1]) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      tenants: { type: "string", default: "50" },
      events: { type: "string", default: "1000000" },
      "export-events": { type: "string", default: "1000000" },
      "big-events": { type: "string", default: "0" },
    },
  });
  if (!positionals[0]) {
    console.error(
      "usage: node --import tsx --import ./scripts/server-only.mjs bench/audit-seed.ts <database url> [--tenants n] [--events n] [--export-events n]",
    );
    process.exit(2);
  }
  await seedAudit(positionals[0], {
    tenants: Number(values.tenants),
    events: Number(values.events),
    exportEvents: Number(values["export-events"]),
    bigEvents: Number(values["big-events"]),
  });
}
