/**
 * `npm run bench:scim`: Directory Sync's SCIM endpoint under an IdP's initial sync, against the
 * REST edge without Next (bench/api-server.ts: the same handler the node server runs for
 * /api/scim/v2) on a fresh Postgres database (cp_bench_scim, dropped at the end).
 *
 * 1. Initial sync: --users (10,000) POST /Users at --connections (10), then --groups (200) POST
 *    /Groups of 50 members each: users/s, p50/p99, server and database CPU per request.
 *    Baseline, same run: a bare node + pg pool inserting the same user rows at the same
 *    concurrency (one INSERT each, no HTTP): the ratio is what SCIM costs on top of the row.
 * 2. Filters on a --big (100,000)-user directory (the rest seeded by SQL): `userName eq` and a
 *    compound filter, --runs sequential GETs each: p50/p99 (target p99 < 20 ms).
 * 3. One PATCH adding 1,000 members to a group (target < 1 s), --runs times: median.
 *
 * Options: --users --groups --connections --big --runs --markdown (write docs/benchmarks/scim.md)
 *          --smoke (100 users, 5 groups, 2,000-user directory, 5 runs: what `npm test` runs)
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { ADMIN_URL, gitInfo, log, startApp, withClient, writeRunSection } from "./harness.ts";
import { benchFlags, runBench } from "./cli.ts";
import { LIMITS_OFF } from "./settings.ts";
import { freePort, stopServer, type Server } from "./procs.ts";
import { cpuBetween, machine, processTree, sampleCpu, type CpuUsage } from "./system.ts";

const flags = benchFlags(
  {
    users: { type: "string", default: "10000" },
    groups: { type: "string", default: "200" },
    connections: { type: "string", default: "10" },
    big: { type: "string", default: "100000" },
    runs: { type: "string", default: "50" },
  },
  { users: "100", groups: "5", big: "2000", runs: "5" },
);
const USERS = Number(flags.users);
const GROUPS = Number(flags.groups);
const CONNECTIONS = Number(flags.connections);
const BIG = Number(flags.big);
const RUNS = Number(flags.runs);
const MEMBERS_PER_GROUP = 50;
const BULK_MEMBERS = Math.min(1000, USERS);
const DB_NAME = "cp_bench_scim";
const DB_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

const SCIM = "application/scim+json";
// A SCIM answer's body, read loosely: the bench checks what it needs of it.
type Answer = { status: number; json: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";

function userBody(i: number) {
  const userName = `user${i}@bench.example.com`;
  return {
    schemas: [USER_SCHEMA],
    externalId: `ext-${i}`,
    userName,
    name: { givenName: `Given${i}`, familyName: `Family${i % 97}` },
    emails: [{ value: userName, type: "work", primary: true }],
    title: i % 3 === 0 ? "Engineer" : "Analyst",
    active: true,
  };
}

interface Timed {
  times: number[];
  wall: number;
  cpu: CpuUsage;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** Runs `count` calls of `one(i)` at `CONNECTIONS` at a time; times each, samples CPU around all. */
async function concurrently(count: number, one: (i: number) => Promise<void>, pids: () => [number, number[]]): Promise<Timed> {
  const times: number[] = [];
  let next = 0;
  const [serverPid, dbPids] = pids();
  const start = sampleCpu(serverPid, dbPids);
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t = performance.now();
        await one(i);
        times.push(performance.now() - t);
      }
    }),
  );
  const wall = (performance.now() - began) / 1000;
  const end = sampleCpu(serverPid, pids()[1]);
  times.sort((a, b) => a - b);
  return { times, wall, cpu: cpuBetween(start, end, count) };
}

async function databasePids(): Promise<number[]> {
  return withClient(ADMIN_URL, async (c) =>
    (await c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [DB_NAME])).rows.map((r) => r.pid),
  );
}

async function call(url: string, token: string, method: string, body?: unknown, type = SCIM): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": type, accept: type },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function expectStatus(label: string, result: Promise<Answer>, status: number) {
  const r = await result;
  if (r.status !== status) throw new Error(`${label}: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
  return r.json;
}

async function main() {
  const started = new Date();
  await withClient(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
  const operator = `cp_${randomBytes(32).toString("base64url")}`;
  const password = randomBytes(12).toString("base64url");
  const port = await freePort();
  let app: Server | null = null;
  try {
    app = await startApp({
      port,
      token: operator,
      databaseUrl: DB_URL,
      apiOnly: true,
      env: { ...LIMITS_OFF, BOOTSTRAP_ADMIN_PASSWORD: password },
    });
    const base = app.url;
    const post = (path: string, body: unknown, status = 201) =>
      expectStatus(path, call(`${base}/api/v1${path}`, operator, "POST", body, "application/json"), status);
    const rest = (path: string, body: unknown) => post(path, body);
    const tenant = await rest("/tenants", { name: "SCIM bench" });
    // Creating a directory needs a fresh step-up: its token writes people into the tenant.
    await post("/auth/step-up", { password }, 200);
    const directory = await rest(`/tenants/${tenant.id}/directories`, { name: "Bench IdP", provider: "okta" });
    const scim = directory.scim_base_url.replace(/^https?:\/\/[^/]+/, base);
    const token: string = directory.token;
    const pids = (): [number, number[]] => [processTree(app!.child.pid!)[0] ?? app!.child.pid!, []];
    log(`directory ${directory.id}: initial sync of ${USERS} users at ${CONNECTIONS} connections`);

    // 1. The initial sync.
    const userIds: string[] = new Array(USERS);
    const dbPidsBefore = await databasePids();
    const users = await concurrently(
      USERS,
      async (i) => {
        userIds[i] = (await expectStatus(`POST /Users ${i}`, call(`${scim}/Users`, token, "POST", userBody(i)), 201)).id;
      },
      () => [pids()[0], dbPidsBefore],
    );
    log(`users: ${(USERS / users.wall).toFixed(0)}/s, p99 ${quantile(users.times, 0.99).toFixed(1)} ms`);
    const groups = await concurrently(
      GROUPS,
      async (g) => {
        const members = Array.from({ length: MEMBERS_PER_GROUP }, (_, k) => ({ value: userIds[(g * MEMBERS_PER_GROUP + k) % USERS]! }));
        await expectStatus(
          `POST /Groups ${g}`,
          call(`${scim}/Groups`, token, "POST", { schemas: [GROUP_SCHEMA], displayName: `Group ${g}`, members }),
          201,
        );
      },
      () => [pids()[0], dbPidsBefore],
    );
    log(`groups: ${(GROUPS / groups.wall).toFixed(0)}/s, p99 ${quantile(groups.times, 0.99).toFixed(1)} ms`);

    // The baseline: the same user rows through a bare pg pool, same concurrency, same run.
    const pool = new pg.Pool({ connectionString: DB_URL, max: CONNECTIONS });
    await pool.query("CREATE TEMP TABLE IF NOT EXISTS x (id int)"); // warm a connection
    const baseline = await concurrently(
      USERS,
      async (i) => {
        const body = { ...userBody(i), externalId: `baseline-${i}`, userName: `baseline-${i}@bench.example.com` };
        await pool.query(
          `INSERT INTO directory_users (directory_id, tenant_id, external_id, user_name, given_name, family_name, primary_email, resource)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [directory.id, tenant.id, body.externalId, body.userName, body.name.givenName, body.name.familyName, body.userName, body],
        );
      },
      () => [process.pid, []],
    );
    await pool.query("DELETE FROM directory_users WHERE user_name LIKE 'baseline-%@bench.example.com'");
    await pool.end();
    log(`baseline inserts: ${(USERS / baseline.wall).toFixed(0)}/s`);

    // 2. Filters on a big directory: the rest of the users by SQL.
    const db = new pg.Client({ connectionString: DB_URL });
    await db.connect();
    await db.query(
      `INSERT INTO directory_users (directory_id, tenant_id, external_id, user_name, given_name, family_name, primary_email, resource, created_at, updated_at)
       SELECT $1, $2, 'ext-' || g, 'user' || g || '@bench.example.com', 'Given' || g, 'Family' || (g % 97), 'user' || g || '@bench.example.com',
              jsonb_build_object('schemas', jsonb_build_array($3::text), 'userName', 'user' || g || '@bench.example.com',
                'name', jsonb_build_object('givenName', 'Given' || g, 'familyName', 'Family' || (g % 97)),
                'emails', jsonb_build_array(jsonb_build_object('value', 'user' || g || '@bench.example.com', 'type', 'work', 'primary', true)),
                'title', CASE WHEN g % 3 = 0 THEN 'Engineer' ELSE 'Analyst' END, 'active', true),
              now() - make_interval(secs => g), now() - make_interval(secs => g)
       FROM generate_series($4::int, $5::int) g
       ON CONFLICT DO NOTHING`,
      [directory.id, tenant.id, USER_SCHEMA, USERS, BIG - 1],
    );
    await db.query("ANALYZE directory_users");
    const total = Number((await db.query("SELECT count(*) FROM directory_users WHERE directory_id = $1", [directory.id])).rows[0].count);
    log(`big directory: ${total} users`);
    const filters: Array<[string, string]> = [
      ["`userName eq` (one match)", `userName eq "USER${Math.floor(BIG / 2)}@bench.example.com"`],
      ["`userName eq` (no match)", `userName eq "nobody@bench.example.com"`],
      [
        'compound: `title eq "Engineer" and name.familyName eq "Family7" and active eq true`',
        `title eq "Engineer" and name.familyName eq "Family7" and active eq true`,
      ],
      ['`emails[type eq "work" and value eq …]`', `emails[type eq "work" and value eq "user${Math.floor(BIG / 3)}@bench.example.com"]`],
    ];
    const filterRows: Array<{ label: string; results: number; p50: number; p99: number }> = [];
    for (const [label, filter] of filters) {
      const url = `${scim}/Users?filter=${encodeURIComponent(filter)}&count=100`;
      for (let i = 0; i < 5; i++) await expectStatus(label, call(url, token, "GET"), 200);
      const times: number[] = [];
      let results = 0;
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        results = (await expectStatus(label, call(url, token, "GET"), 200)).totalResults;
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      filterRows.push({ label, results, p50: quantile(times, 0.5), p99: quantile(times, 0.99) });
      log(`${label}: ${results} results, p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms`);
    }
    await db.end();

    // 3. 1,000 members added to a group in one PATCH.
    const patchTimes: number[] = [];
    for (let r = 0; r < Math.min(RUNS, 5); r++) {
      const group = await expectStatus(
        "POST /Groups",
        call(`${scim}/Groups`, token, "POST", { schemas: [GROUP_SCHEMA], displayName: `Bulk ${r}` }),
        201,
      );
      const value = userIds.slice(0, BULK_MEMBERS).map((id) => ({ value: id }));
      const t = performance.now();
      const patched = await call(`${scim}/Groups/${group.id}`, token, "PATCH", {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "add", path: "members", value }],
      });
      patchTimes.push(performance.now() - t);
      if (patched.status !== 200 && patched.status !== 204) throw new Error(`PATCH members: ${patched.status}`);
      const check = await expectStatus("GET group", call(`${scim}/Groups/${group.id}`, token, "GET"), 200);
      if ((check.members ?? []).length !== BULK_MEMBERS)
        throw new Error(`the group has ${(check.members ?? []).length} members, not ${BULK_MEMBERS}`);
    }
    patchTimes.sort((a, b) => a - b);
    log(`PATCH +${BULK_MEMBERS} members: median ${quantile(patchTimes, 0.5).toFixed(0)} ms`);

    const m = machine("Postgres on 127.0.0.1");
    const rate = (t: Timed, n: number) => n / t.wall;
    const table = [
      "| Phase | Requests | Rate /s | p50 ms | p99 ms | server CPU ms/req | vs bare insert |",
      "|:---|---:|---:|---:|---:|---:|---:|",
      `| POST /Users (initial sync) | ${USERS} | ${rate(users, USERS).toFixed(0)} | ${quantile(users.times, 0.5).toFixed(1)} | ${quantile(users.times, 0.99).toFixed(1)} | ${users.cpu.serverMsPerRequest.toFixed(2)} | ${(rate(users, USERS) / rate(baseline, USERS)).toFixed(2)}× |`,
      `| POST /Groups (${MEMBERS_PER_GROUP} members) | ${GROUPS} | ${rate(groups, GROUPS).toFixed(0)} | ${quantile(groups.times, 0.5).toFixed(1)} | ${quantile(groups.times, 0.99).toFixed(1)} | ${groups.cpu.serverMsPerRequest.toFixed(2)} | |`,
      `| bare node + pg INSERT (baseline) | ${USERS} | ${rate(baseline, USERS).toFixed(0)} | ${quantile(baseline.times, 0.5).toFixed(1)} | ${quantile(baseline.times, 0.99).toFixed(1)} | | 1.00× |`,
    ].join("\n");
    const filterTable = [
      `| Filter on ${total.toLocaleString("en")} users | Results | p50 ms | p99 ms |`,
      "|:---|---:|---:|---:|",
      ...filterRows.map((r) => `| ${r.label} | ${r.results} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`),
      `| PATCH adding ${BULK_MEMBERS} members (median of ${patchTimes.length}) | | ${quantile(patchTimes, 0.5).toFixed(0)} | ${patchTimes.at(-1)!.toFixed(0)} (max) |`,
    ].join("\n");
    const section = `## SCIM (Directory Sync)

Command: \`npm run bench:scim -- --users ${USERS} --groups ${GROUPS} --connections ${CONNECTIONS} --big ${BIG} --runs ${RUNS}\`.

- Date: ${started.toISOString()}; tree at commit \`${gitInfo().commit}\`.
- Machine: ${m.nproc} CPUs, ${m.memTotalGiB.toFixed(1)} GiB RAM, ${m.cpuModel}; Node ${m.node}; Postgres on 127.0.0.1; the app is bench/api-server.ts (the node server's handler for /api/v1 and /api/scim/v2, without Next), one process, rate limits off.

${table}

${filterTable}
`;
    console.log(`\n${table}\n\n${filterTable}\n`);
    if (flags.markdown) writeRunSection("scim.md", section, "## SCIM (Directory Sync)");
  } catch (error) {
    // What the server said last: the cause of a 500 is in its log, not in the SCIM error.
    if (app) console.error(`\nthe app's last lines:\n${app.output()}`);
    throw error;
  } finally {
    if (app) await stopServer(app);
    await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));
  }
}

runBench("bench:scim", main);
