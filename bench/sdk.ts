/**
 * `npm run bench:sdk`: what the SDK (sdk/) adds to a list call, and its bundle size (issue 28,
 * "Measured": under 5 % over raw fetch).
 *
 * One app (bench/api-server.ts: the REST edge without Next, with bench/settings.ts) on a
 * fresh database cp_bench_sdk (dropped at the end), 100 tenants. Each of --rounds rounds runs
 * --calls pairs of `GET /api/v1/tenants?page_size=20`, back to back, the first of each pair
 * alternating: raw `fetch` + `res.json()`, and `cp.tenants.list({ page_size: 20 }).page()` (the
 * SDK's transport, openapi-fetch, problem check; retries and idempotency keys on, as shipped);
 * then --calls of each alone for this process's CPU per call. Reported: medians over rounds of the
 * mean time per call, of the SDK / raw ratio, and of the CPU per call. Bundle: esbuild bundles sdk/src/index.ts (ESM, node, minified), with
 * openapi-fetch inside, and its size gzipped (level 9).
 *
 * Options: --rounds (40) --calls (50) --markdown (write docs/benchmarks/sdk.md)
 *          --smoke (3 rounds of 5 calls: what `npm test` runs)
 */
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { ADMIN_URL, gitInfo, log, ROOT, startApp, withClient, writeRunSection } from "./harness.ts";
import { benchFlags, runBench } from "./cli.ts";
import { freePort, stopServer, type Server } from "./procs.ts";
import { ControlPlane } from "../sdk/src/index.ts";

const flags = benchFlags(
  {
    rounds: { type: "string", default: "40" },
    calls: { type: "string", default: "50" },
  },
  { rounds: "3", calls: "5" },
);
const ROUNDS = Number(flags.rounds);
const CALLS = Number(flags.calls);
const DB_NAME = "cp_bench_sdk";
const DB_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Round {
  raw: number;
  sdk: number;
}

/**
 * One round: `CALLS` pairs of calls, raw and SDK back to back (which goes first alternates), so
 * both meet the same load on a shared machine; the mean wall time per call of each.
 */
async function round(raw: () => Promise<unknown>, sdk: () => Promise<unknown>): Promise<Round> {
  const total = { raw: 0, sdk: 0 };
  const timed = async (name: keyof Round, call: () => Promise<unknown>) => {
    const started = performance.now();
    await call();
    total[name] += performance.now() - started;
  };
  for (let i = 0; i < CALLS; i++) {
    if (i % 2 === 0) await timed("raw", raw).then(() => timed("sdk", sdk));
    else await timed("sdk", sdk).then(() => timed("raw", raw));
  }
  return { raw: total.raw / CALLS, sdk: total.sdk / CALLS };
}

/** This process's CPU per call over `CALLS` calls of one client alone. */
async function cpuPerCall(call: () => Promise<unknown>): Promise<number> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await call();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / CALLS;
}

export async function bundleSize(): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    entryPoints: [path.join(ROOT, "sdk/src/index.ts")],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
  });
  const bytes = result.outputFiles[0]!.contents;
  return { minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
}

async function main() {
  const started = new Date();
  const LOAD = loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
  await withClient(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
  const token = `cp_${randomBytes(32).toString("base64url")}`;
  let app: Server | null = null;
  try {
    app = await startApp({
      port: await freePort(),
      token,
      databaseUrl: DB_URL,
      apiOnly: true,
    });
    const cp = new ControlPlane({ baseUrl: app.url, token });
    for (let i = 0; i < 100; i++) await cp.tenants.create({ name: `SDK bench ${i}` });
    const url = `${app.url}/api/v1/tenants?page_size=20`;
    const raw = async () => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`raw fetch: ${res.status}`);
      return res.json();
    };
    const sdk = () => cp.tenants.list({ page_size: 20 }).page();
    // Both read the same page, or the comparison is of two different things.
    if (JSON.stringify(await raw()) !== JSON.stringify(await sdk())) throw new Error("the SDK's page differs from raw fetch's");
    for (let i = 0; i < 3; i++) await round(raw, sdk); // warm both paths up

    const rounds: Round[] = [];
    const cpu = { raw: [] as number[], sdk: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      rounds.push(await round(raw, sdk));
      cpu.raw.push(await cpuPerCall(raw));
      cpu.sdk.push(await cpuPerCall(sdk));
    }
    const result = {
      rawMs: median(rounds.map((r) => r.raw)),
      sdkMs: median(rounds.map((r) => r.sdk)),
      rawCpuMs: median(cpu.raw),
      sdkCpuMs: median(cpu.sdk),
      ratio: median(rounds.map((r) => r.sdk / r.raw)),
    };
    const size = await bundleSize();
    log(
      `raw fetch ${result.rawMs.toFixed(3)} ms/call (${result.rawCpuMs.toFixed(3)} CPU ms), SDK ${result.sdkMs.toFixed(3)} ms/call ` +
        `(${result.sdkCpuMs.toFixed(3)} CPU ms): ratio ${result.ratio.toFixed(3)} (${result.ratio >= 1 ? "+" : ""}${((result.ratio - 1) * 100).toFixed(1)} %)`,
    );
    log(`bundle: ${(size.minified / 1024).toFixed(1)} KiB minified, ${(size.gzipped / 1024).toFixed(1)} KiB minified + gzip`);
    const git = gitInfo();
    const section = `## SDK

- Run: ${started.toISOString().slice(0, 16).replace("T", " ")} UTC, commit \`${git.commit}\`; \`npm run bench:sdk -- --rounds ${ROUNDS} --calls ${CALLS}\`.
- Setup: bench/api-server.ts with bench/settings.ts (rate limits counted at unreachable quotas) on ${DB_NAME}, 100 tenants; client and server on one machine.
- Method: per round ${CALLS} pairs of sequential \`GET /api/v1/tenants?page_size=20\`, raw fetch + \`res.json()\` and \`cp.tenants.list({ page_size: 20 }).page()\` back to back (which goes first alternates), then ${CALLS} of each alone for client CPU; medians over ${ROUNDS} rounds. Load average at the start: ${LOAD}.

| Client | ms per call (median) | client CPU ms per call |
|:---|---:|---:|
| raw fetch | ${result.rawMs.toFixed(3)} | ${result.rawCpuMs.toFixed(3)} |
| SDK | ${result.sdkMs.toFixed(3)} | ${result.sdkCpuMs.toFixed(3)} |

- SDK / raw fetch: median of the per-round ratios **${result.ratio.toFixed(3)}**, ratio of the medians ${(result.sdkMs / result.rawMs).toFixed(3)} (target < 1.05; the two disagree when the machine's load moves during the run).
- Bundle (esbuild, ESM, node, minified, openapi-fetch included): ${size.minified.toLocaleString("en")} bytes, **${size.gzipped.toLocaleString("en")} bytes gzipped**.
`;
    if (!Number.isFinite(result.ratio) || result.ratio <= 0) throw new Error(`no ratio computed (${result.ratio})`);
    if (flags.markdown) writeRunSection("sdk.md", section, "## SDK");
  } finally {
    if (app) await stopServer(app);
    await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));
  }
}

runBench("bench:sdk", main);
