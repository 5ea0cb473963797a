/**
 * `npm run bench:sso`: SAML ACS validation and OIDC callback handling on one instance (issue 11,
 * "Measured"). The OIDC half is bench/sso-oidc.ts (a stand-in OP in a child process).
 *
 * In process, on a fresh database cp_bench_sso: a SAML provider whose metadata comes from the
 * test IdP (test/support/saml-idp.ts, 2048-bit RSA, RSA-SHA256, exclusive c14n), then `--n`
 * responses signed ahead of time (IdP time is excluded), each a distinct assertion answering its
 * own request. Each run validates all of them with `validateSamlResponse` (signature, checks,
 * profile, the replay-cache INSERT in Postgres) at `--concurrency` in flight, and records wall
 * time and this process's CPU time. Reported: median of `--reps` runs, for a signed Response and
 * for a signed Assertion only. Postgres CPU is not counted (one INSERT per sign-in).
 *
 * Options: --n <responses> (300) --reps <n> (5) --concurrency <n> (4) --only saml|oidc --keep-db
 *          --smoke (20 responses, 1 rep: what `npm test` runs; every sign-in must validate). Prints only.
 * Env: BENCH_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres).
 */
import { randomUUID } from "node:crypto";
import { ADMIN_URL, log, withClient } from "./harness.ts";
import { connectPostgres, type Database } from "../server/db/client.ts";
import { migrate } from "../server/db/migrate.ts";
import { parseSamlMetadata } from "../server/sso/metadata.ts";
import { samlConfigFrom, type SamlProviderConfig } from "../server/sso/saml/config.ts";
import { validateSamlResponse } from "../server/sso/saml/validate.ts";
import { startSamlIdp, type SamlIdp } from "../test/support/saml-idp.ts";
import type { Signing } from "../test/support/saml-response.ts";
import { benchFlags, runBench } from "./cli.ts";
import { settingsFor } from "./settings.ts";
import { oidcBench, type OidcRun } from "./sso-oidc.ts";

const flags = benchFlags(
  {
    n: { type: "string", default: "300" },
    reps: { type: "string", default: "5" },
    concurrency: { type: "string", default: "4" },
    "keep-db": { type: "boolean" },
    only: { type: "string" },
  },
  { n: "20", reps: "1" },
);
const N = Number(flags.n);
const REPS = Number(flags.reps);
const CONCURRENCY = Number(flags.concurrency);
const DB_NAME = "cp_bench_sso";
const dbUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

interface Run {
  perSecond: number;
  cpuMsPerSignIn: number;
  wallMsPerSignIn: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function setUp(db: Database, idp: SamlIdp): Promise<SamlProviderConfig> {
  const tenant = await db.prisma.tenant.create({ data: { name: "SSO bench" } });
  const details = parseSamlMetadata(idp.metadataXml());
  const provider = await db.prisma.ssoProvider.create({
    data: {
      tenantId: tenant.id,
      providerType: "saml",
      name: "Bench IdP",
      metadataUrl: idp.metadataUrl,
      metadataStatus: "valid",
      metadataDetails: details as object,
    },
  });
  return samlConfigFrom({ id: provider.id, allowIdpInitiated: false }, details);
}

function responses(idp: SamlIdp, config: SamlProviderConfig, signing: Signing) {
  return Array.from({ length: N }, () => {
    const requestId = `_${randomUUID()}`;
    const { samlResponse } = idp.issue({ audience: config.sp.entity_id, acsUrl: config.sp.acs_url, inResponseTo: requestId, signing });
    return { requestId, samlResponse };
  });
}

async function run(db: Database, config: SamlProviderConfig, batch: { requestId: string; samlResponse: string }[]): Promise<Run> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < batch.length) {
        const item = batch[next++]!;
        await validateSamlResponse(db.prisma, config, item.samlResponse, item.requestId);
      }
    }),
  );
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  return {
    perSecond: (batch.length / wallMs) * 1000,
    cpuMsPerSignIn: (used.user + used.system) / 1000 / batch.length,
    wallMsPerSignIn: wallMs / batch.length,
  };
}

async function benchOidc(db: Database): Promise<string> {
  const bench = await oidcBench(db);
  try {
    await bench.run(50, CONCURRENCY); // warm-up: JIT, the pool, discovery
    const runs: OidcRun[] = [];
    for (let rep = 0; rep < REPS; rep++) runs.push(await bench.run(N, CONCURRENCY));
    const line =
      `OIDC callback: ${median(runs.map((r) => r.perSecond)).toFixed(0)} sign-ins/s   ` +
      `CPU ${median(runs.map((r) => r.cpuMsPerSignIn)).toFixed(2)} ms/sign-in   wall ${median(runs.map((r) => r.wallMsPerSignIn)).toFixed(2)} ms/sign-in`;
    log(line);
    return `OIDC callback handling, one instance, ${N} first sign-ins x ${REPS} runs (median), ${CONCURRENCY} in flight:\n${line}\n`;
  } finally {
    bench.close();
  }
}

async function main() {
  // The stand-in OP listens on loopback over http; sessions need a secret (the bench's own).
  Object.assign(process.env, settingsFor("bench process"));
  process.env.APP_URL ??= "http://127.0.0.1:3000";
  process.env.NEXTAUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  await withClient(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${DB_NAME}"`);
  });
  const db = connectPostgres(dbUrl, 10);
  const idp = await startSamlIdp();
  try {
    await migrate(db.sql);
    const oidc = flags.only === "saml" ? "" : await benchOidc(db);
    if (flags.only === "oidc") {
      console.log(`\n${oidc}`);
      return;
    }
    const config = await setUp(db, idp);
    // Warm-up: JIT, the pool's connections, node-saml's certificate parsing.
    await run(db, config, responses(idp, config, "response").slice(0, 50));
    const table: string[] = [];
    for (const signing of ["response", "assertion"] as const) {
      const runs: Run[] = [];
      for (let rep = 0; rep < REPS; rep++) runs.push(await run(db, config, responses(idp, config, signing)));
      const line = `signed ${signing.padEnd(9)}  ${median(runs.map((r) => r.perSecond))
        .toFixed(0)
        .padStart(
          5,
        )} validations/s   CPU ${median(runs.map((r) => r.cpuMsPerSignIn)).toFixed(2)} ms/sign-in   wall ${median(runs.map((r) => r.wallMsPerSignIn)).toFixed(2)} ms/sign-in`;
      log(line);
      table.push(line);
    }
    console.log(
      `\n${oidc}\nSAML ACS validation, one instance, ${N} responses x ${REPS} runs (median), ${CONCURRENCY} in flight:\n${table.join("\n")}`,
    );
  } finally {
    await idp.close();
    await db.close();
    if (!flags["keep-db"]) await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`));
  }
}

runBench("bench:sso", main);
