// Every benchmark at its smoke size: each `bench` or `bench:*` script of package.json run as
// `npm run <script> -- --smoke`, one after another (their numbers mean nothing at that size; what
// is checked is that each still runs and its own checks hold: every delivery once, every event
// in the chain, the ratios computed). `npm test` runs this beside Vitest once the production build
// is there (BENCH_DIST_DIR=.next). Each bench's output goes to .test-results/bench-<script>.log;
// a failure prints its last lines and exits non-zero. A bench that takes longer than
// BENCH_SMOKE_TIMEOUT_SECONDS (240) at smoke size fails too.
import { spawn } from "node:child_process";
import { mkdirSync, openSync, closeSync, readFileSync } from "node:fs";

const results = ".test-results";
mkdirSync(results, { recursive: true });
const timeoutSeconds = Number(process.env.BENCH_SMOKE_TIMEOUT_SECONDS ?? 240);
const { scripts } = JSON.parse(readFileSync("package.json", "utf8"));
/**
 * Benches with nothing to check at smoke size, and why. bench:first-start times a fresh clone's
 * `npm install` from the registry and first build: minutes of network and CPU that measure and check
 * nothing the embedded-database journey (e2e/embedded-database.spec.ts) does not.
 */
const NOT_AT_SMOKE = new Map([
  ["bench:first-start", "a fresh install and build from the registry; e2e/embedded-database.spec.ts checks the start"],
]);
const benches = Object.keys(scripts).filter((name) => /^bench(:|$)/.test(name) && !NOT_AT_SMOKE.has(name));
const only = process.argv.slice(2);

let current;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    // The benches run in their own process groups: take the running one (npm, tsx, its servers) along.
    if (current?.exitCode === null) process.kill(-current.pid, "SIGTERM");
    process.exit(1);
  });
}

function run(name) {
  const log = `${results}/bench-${name.replace(/[^a-z0-9]+/gi, "-")}.log`;
  const out = openSync(log, "w");
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", name, "--", "--smoke"], {
      stdio: ["ignore", out, out],
      env: { BENCH_DIST_DIR: ".next", ...process.env },
      detached: true,
    });
    current = child;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid, "SIGTERM");
      // Whatever of its group still runs 10 s later (the group may be gone while npm is still closing).
      setTimeout(() => {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // ESRCH: nothing left to kill
        }
      }, 10_000).unref();
    }, timeoutSeconds * 1000);
    child.on("close", (status) => {
      clearTimeout(timer);
      closeSync(out);
      resolve({ name, log, status: timedOut ? "timeout" : status, seconds: (Date.now() - started) / 1000 });
    });
  });
}

const chosen = benches.filter((b) => !only.length || only.includes(b));
const failed = [];
for (const name of chosen) {
  const outcome = await run(name);
  if (outcome.status === 0) {
    console.log(`✔ ${name} --smoke (${outcome.seconds.toFixed(1)}s)`);
    continue;
  }
  failed.push(name);
  const lines = readFileSync(outcome.log, "utf8").trimEnd().split("\n");
  const why = outcome.status === "timeout" ? `took longer than ${timeoutSeconds} s` : `exit ${outcome.status}`;
  console.log(`✖ ${name} --smoke (${why}, ${outcome.seconds.toFixed(1)}s); last lines of ${outcome.log}:`);
  console.log(
    lines
      .slice(-25)
      .map((line) => `  ${line}`)
      .join("\n"),
  );
}
if (failed.length) {
  console.log(`\n${failed.length} of ${chosen.length} benchmarks failed at smoke size: ${failed.join(", ")}`);
  process.exit(1);
}
console.log(`\nall ${chosen.length} benchmarks ran at smoke size`);
for (const [name, why] of NOT_AT_SMOKE) console.log(`(${name} is not run at smoke size: ${why})`);
