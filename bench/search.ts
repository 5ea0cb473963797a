/**
 * `npm run bench:search`: tenant search (GET /api/v1/tenants?search=) at 100,000 tenants, through
 * the app's own service function (server/tenants/service.ts listTenants: the page and its count,
 * exactly the SQL the endpoint runs), on both engines: Postgres (database cp_bench_search,
 * dropped at the end) and PGlite (a temporary directory). Sequential calls, so the times are
 * per request, not throughput; the HTTP layer's own cost is in the "Tenants API" section.
 *
 * Options: --tenants <n> (100000) --runs <n> (30 per query) --engines postgres,pglite
 *          --markdown (write the "Tenant search" section of docs/benchmarks/search.md)
 *          --smoke (2,000 tenants, 3 calls per query: what `npm test` runs)
 * Prints a table.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { connectPostgres, openPglite, type Database } from "../server/db/client.ts";
import { migrate } from "../server/db/migrate.ts";
import { listTenants } from "../server/tenants/service.ts";
import type { ServiceContext } from "../server/service-context.ts";
import { ADMIN_URL, gitInfo, log, withClient, writeRunSection } from "./harness.ts";
import { benchFlags, runBench } from "./cli.ts";
import { machine } from "./system.ts";

const flags = benchFlags(
  {
    tenants: { type: "string", default: "100000" },
    runs: { type: "string", default: "30" },
    engines: { type: "string", default: "postgres,pglite" },
  },
  { tenants: "2000", runs: "3" },
);
const TENANTS = Number(flags.tenants);
const RUNS = Number(flags.runs);
const DB_NAME = "cp_bench_search";
const WORDS = ["Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Hooli", "Pied Piper", "Soylent", "Tyrell", "Cyberdyne", "Wonka"];
const SUFFIXES = ["Corp", "GmbH", "Ltd", "Inc", "AG", "SAS", "BV", "Labs"];

async function seed(db: Database): Promise<string> {
  await db.sql.query(
    `INSERT INTO tenants (name, created_at)
     SELECT ($2::text[])[1 + g % array_length($2::text[], 1)] || ' ' || substr(md5(g::text), 1, 6) || ' '
            || ($3::text[])[1 + (g / 7) % array_length($3::text[], 1)],
            now() - make_interval(secs => g * 30)
     FROM generate_series(1, $1) AS g`,
    [TENANTS, WORDS, SUFFIXES],
  );
  await db.sql.query("ANALYZE tenants");
  const [row] = await db.sql.query<{ id: string }>("SELECT id FROM tenants ORDER BY created_at LIMIT 1 OFFSET $1", [
    Math.floor(TENANTS / 2),
  ]);
  return row!.id;
}

function operatorContext(db: Database): ServiceContext {
  return {
    db,
    actor: {
      principal: {
        userId: "00000000-0000-4000-8000-000000000000",
        email: "bench@example.com",
        platformRole: "operator",
        via: "system",
        token: null,
        sessionId: null,
      },
      request: { requestId: "bench", ip: null, userAgent: null },
    },
  };
}

interface Row {
  engine: string;
  query: string;
  matches: number;
  p50: number;
  p90: number;
  max: number;
}

async function measure(db: Database, engine: string, queries: Array<[string, string | undefined]>): Promise<Row[]> {
  const ctx = operatorContext(db);
  const rows: Row[] = [];
  for (const [label, search] of queries) {
    for (let i = 0; i < 3; i++) await listTenants(ctx, { page: 1, pageSize: 20 }, search);
    const times: number[] = [];
    let matches = 0;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      matches = (await listTenants(ctx, { page: 1, pageSize: 20 }, search)).count;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    rows.push({ engine, query: label, matches, p50: at(0.5), p90: at(0.9), max: times.at(-1)! });
    log(
      `${engine.padEnd(8)} ${label.padEnd(40)} ${String(matches).padStart(7)} matches  p50 ${at(0.5).toFixed(1)} ms  p90 ${at(0.9).toFixed(1)} ms`,
    );
  }
  return rows;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
}

/** What the searches must find, whatever their speed: every tenant, none, the one, and the same on both engines. */
function checkMatches(rows: Row[]): void {
  const expected: Record<string, number> = { "no search (first page + count)": TENANTS, "`zzqx` (no match)": 0, "exact id": 1 };
  for (const row of rows) {
    const want = expected[row.query];
    if (want !== undefined && row.matches !== want) throw new Error(`${row.engine} ${row.query}: ${row.matches} matches, expected ${want}`);
    const other = rows.find((o) => o.query === row.query && o.engine !== row.engine);
    if (other && other.matches !== row.matches)
      throw new Error(`${row.query}: ${row.engine} found ${row.matches}, ${other.engine} ${other.matches}`);
  }
}

async function main() {
  const started = new Date();
  const engines = flags.engines.split(",");
  const rows: Row[] = [];
  const loadBefore = loadAverage();
  let postgresVersion = "not measured";
  const queriesFor = (id: string): Array<[string, string | undefined]> => [
    ["no search (first page + count)", undefined],
    ["`acme` (common: 1 in 12)", "acme"],
    ["`acme 1` (rarer)", "acme 1"],
    ["`zzqx` (no match)", "zzqx"],
    ["exact id", id],
  ];

  if (engines.includes("postgres")) {
    postgresVersion = await withClient(ADMIN_URL, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${DB_NAME}`);
      return (await c.query<{ version: string }>("SELECT version()")).rows[0]!.version.split(",")[0]!;
    });
    const url = new URL(ADMIN_URL);
    url.pathname = `/${DB_NAME}`;
    const db = connectPostgres(url.toString());
    try {
      await migrate(db.sql);
      const id = await seed(db);
      log(`postgres: seeded ${TENANTS} tenants`);
      rows.push(...(await measure(db, "Postgres", queriesFor(id))));
    } finally {
      await db.close();
      await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));
    }
  }
  if (engines.includes("pglite")) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cp-bench-search-"));
    const db = await openPglite(dir);
    try {
      await migrate(db.sql);
      const id = await seed(db);
      log(`pglite: seeded ${TENANTS} tenants`);
      rows.push(...(await measure(db, "PGlite", queriesFor(id))));
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const m = machine(postgresVersion);
  const table = [
    "| Engine | search | Matches | p50 ms | p90 ms | max ms |",
    "|:---|:---|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${r.query} | ${r.matches.toLocaleString("en")} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.max.toFixed(1)} |`,
    ),
  ].join("\n");
  const section = `## Tenant search

Command: \`npm run bench:search\` (${flags.tenants} tenants, ${RUNS} sequential calls per query after 3 warm-up calls).

- Date: ${started.toISOString()}; tree at commit \`${gitInfo().commit}\`.
- Machine: ${m.nproc} CPUs, ${m.memTotalGiB.toFixed(1)} GiB RAM, ${m.cpuModel}; ${m.kernel}; Node ${m.node}; ${m.postgres} on 127.0.0.1; PGlite from node_modules.
- Load average (1/5/15 min) before: ${loadBefore}; after: ${loadAverage()} — the machine is shared with other work, so read absolute times with that in mind.

**Method.** ${TENANTS.toLocaleString("en")} tenants named like "Acme 3f9a1c GmbH" (12 words × 8 suffixes, a hex part), created_at spread back in time; each call is the app's own \`listTenants\` for the first page of 20 **and** its exact count, as \`GET /api/v1/tenants?search=…\` runs them (an operator: no membership filter).
How search works: \`tenants.search_name\` is \`lower(name)\` generated by the database in collation "C", with a btree. An exact UUID is a primary-key lookup; any other text is \`search_name LIKE '%text%'\`: the count reads every row's short lower-case copy (a byte comparison, no per-row \`lower()\` under a linguistic collation: about 3–5× cheaper than \`lower(name) LIKE\` or \`ILIKE\` here), the page walks the (created_at, id) index newest first and stops after 20 matches (fast for common text, a full walk for rare text). pg_trgm would make rare substrings index lookups, but PGlite (the embedded default) does not have it.

${table}
`;
  console.log(`\n${table}\n`);
  checkMatches(rows);
  if (flags.markdown) writeRunSection("search.md", section, "## Tenant search");
}

runBench("bench:search", main);
