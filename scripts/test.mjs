// `npm test`: lint, format and type-check, the production build and Vitest (unit + integration
// against a real Postgres), side by side; on the build, the compiled server's test, then the
// Playwright journeys in Debian's Chromium beside the benchmarks at smoke size. Stops at the first
// failing part and exits non-zero; ends with one summary line of the tests run. test/README.md
// says where each test lives.
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import pg from "pg";

const results = ".test-results";
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

function counts() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const vitest of [`${results}/vitest.json`, `${results}/vitest-after-build.json`]) {
    if (existsSync(vitest)) {
      const report = JSON.parse(readFileSync(vitest, "utf8"));
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + report.numTodoTests;
    }
  }
  const playwright = `${results}/playwright.json`;
  if (existsSync(playwright)) {
    const report = JSON.parse(readFileSync(playwright, "utf8"));
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  }
  return { passed, failed, skipped };
}

function summary() {
  const { passed, failed, skipped } = counts();
  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
}

const server = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
try {
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 5000 });
  await client.connect();
  await client.end();
} catch (error) {
  console.error(
    `Cannot reach Postgres at ${server.replace(/\/\/[^@]*@/, "//")} (${error.message}). ` +
      "Start it (e.g. `pg_ctlcluster 15 main start`) or set TEST_DATABASE_URL to a server where the user may create databases.",
  );
  process.exit(1);
}

/** Steps that only read the checkout, run side by side; each one's output is printed whole when it ends. */
async function together(steps) {
  console.log(`\n▶ ${steps.map(([name]) => name).join(", ")} (side by side)`);
  const outcomes = await Promise.all(
    steps.map(
      ([name, command, args]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: process.env });
          lower(child, BESIDE);
          process.on("exit", () => child.kill());
          let output = "";
          child.stdout.on("data", (chunk) => (output += chunk));
          child.stderr.on("data", (chunk) => (output += chunk));
          child.on("close", (status) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            console.log(`\n▶ ${name}: ${[command, ...args].join(" ")}\n${output.trimEnd()}`);
            console.log(status === 0 ? `✔ ${name} (${seconds}s)` : `✖ ${name} failed after ${seconds}s`);
            resolve(status ?? 1);
          });
        }),
    ),
  );
  const failed = outcomes.find((status) => status !== 0);
  if (failed !== undefined) {
    summary();
    process.exit(failed);
  }
}

const bin = (name) => `node_modules/.bin/${name}`;

/**
 * The longest chain is the build, then the journeys: they run at the normal priority, and what
 * runs beside them fills the cores they leave (a part's processes inherit its niceness): Vitest a
 * little lower, the static checks and the benchmarks' smoke runs lower still. Nothing waits on a
 * lower part but the end of the run.
 */
const VITEST = 5;
const BESIDE = 10;
function lower(child, niceness) {
  if (!niceness || child.pid === undefined) return;
  try {
    setPriority(child.pid, niceness);
  } catch {
    // Not permitted here (some containers): the part runs at the normal priority.
  }
}
// Everything starts at once on a 2-core machine, because each part waits a good share of its
// time (Vitest's workers on Postgres and HTTP, the journeys on the browser): the static checks,
// the production build (without the type-check the static step runs), and Vitest. Once built:
// the compiled server's test, then the browser journeys and the benchmarks at smoke size
// (scripts/bench-smoke.mjs) side by side. Vitest's output is shown as it runs; the others' is
// kept in files (.test-results/) and printed as each part ends. The first failure ends the run.
function inFile(command, args, file, env = {}, niceness = 0) {
  const out = openSync(file, "w");
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", out, out], env: { ...process.env, ...env } });
    lower(child, niceness);
    child.on("close", (status) => {
      closeSync(out);
      resolve({ status: status ?? 1, seconds: ((Date.now() - started) / 1000).toFixed(1), output: readFileSync(file, "utf8").trimEnd() });
    });
    // A failing part exits at once: what runs beside it goes with it.
    process.on("exit", () => child.kill());
  });
}

/** Prints a finished part run beside the others; exits (and takes the others along) if it failed. */
function report(name, command, outcome) {
  console.log(`\n▶ ${name}: ${command}\n${outcome.output}`);
  if (outcome.status !== 0) {
    console.error(`\n✖ ${name} failed after ${outcome.seconds}s`);
    summary();
    process.exit(outcome.status);
  }
  console.log(`✔ ${name} (${outcome.seconds}s)`);
}

/** A part whose output is shown as it runs; exits on failure. */
async function liveStep(name, command, args, env = {}, niceness = 0) {
  console.log(`\n▶ ${name}: ${[command, ...args].join(" ")}`);
  const started = Date.now();
  const status = await new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
    lower(child, niceness);
    child.on("close", (code) => resolve(code ?? 1));
    process.on("exit", () => child.kill());
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (status !== 0) {
    console.error(`\n✖ ${name} failed after ${seconds}s`);
    summary();
    process.exit(status);
  }
  console.log(`✔ ${name} (${seconds}s)`);
}

const staticChecks = together([
  ["lint", bin("eslint"), ["--max-warnings=0", "."]],
  ["format (Prettier)", bin("prettier"), ["--check", "."]],
  ["type-check", bin("tsc"), ["--noEmit"]],
]);

const onTheBuild = (async () => {
  report(
    "production build",
    `${bin("next")} build`,
    await inFile(bin("next"), ["build"], `${results}/build.log`, { SKIP_BUILD_TYPECHECK: "1" }),
  );
  // The compiled server on the build just made: a missing build fails it here, never a skip.
  const compiled = [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${results}/vitest-after-build.json`,
    "--project=after-build",
  ];
  report(
    "the compiled server (Vitest, on the build)",
    `${bin("vitest")} ${compiled.join(" ")}`,
    await inFile(bin("vitest"), compiled, `${results}/compiled-server.log`, { REQUIRE_NEXT_BUILD: "1" }),
  );
  const e2e = inFile(bin("playwright"), ["test", "--reporter=list,json"], `${results}/e2e.log`, {
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${results}/playwright.json`,
  });
  const benches = inFile("node", ["scripts/bench-smoke.mjs"], `${results}/bench-smoke.log`, {}, BESIDE);
  report("e2e (Playwright, Chromium)", `${bin("playwright")} test`, await e2e);
  report("benchmarks at smoke size", "node scripts/bench-smoke.mjs", await benches);
})();

const vitest = liveStep(
  "unit + integration (Vitest, real Postgres)",
  bin("vitest"),
  [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${results}/vitest.json`,
    // Every project but the compiled server's (vitest.config.ts), which runs on the build above.
    "--project=unit*",
    "--project=integration*",
  ],
  {},
  VITEST,
);
await Promise.all([staticChecks, onTheBuild, vitest]);
summary();
