/**
 * What every benchmark's command line shares. Beside its own options each bench takes
 * `--smoke` (its small sizes: seconds, not minutes; `npm test` runs every bench so, through
 * scripts/bench-smoke.mjs, to prove it still runs and its own checks hold) and `--markdown` (write
 * this run's section into docs/benchmarks/: the only way a bench writes a tracked file; raw results
 * go to bench/results/, which git ignores). `runBench` turns any failure into one line saying why,
 * and a non-zero exit.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { settingsLine } from "./settings.ts";

type Option = { type: "string"; default?: string } | { type: "boolean"; default?: boolean };
type Values<O extends Record<string, Option>> = {
  [K in keyof O]: O[K] extends { type: "boolean" } ? boolean : O[K] extends { default: string } ? string : string | undefined;
} & { smoke: boolean; markdown: boolean };

const ROOT = path.resolve(import.meta.dirname, "..");
export const RESULTS_DIR = path.join(ROOT, "bench/results");

/**
 * The bench's flags: `options` with their defaults, replaced by `smoke`'s under `--smoke`; a flag
 * given on the command line wins over both. Unknown flags are refused (a typo never runs the full size).
 */
export function benchFlags<O extends Record<string, Option>>(options: O, smoke: { [K in keyof O]?: string | boolean }): Values<O> {
  const bare = Object.fromEntries(Object.entries(options).map(([name, { type }]) => [name, { type }]));
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ options: { ...bare, smoke: { type: "boolean" }, markdown: { type: "boolean" } }, strict: true }));
  } catch (error) {
    refuse((error as Error).message);
  }
  const isSmoke = values.smoke === true;
  const filled: Record<string, unknown> = { smoke: isSmoke, markdown: values.markdown === true && !isSmoke };
  for (const [name, option] of Object.entries(options)) {
    const given = values[name];
    filled[name] = given ?? (isSmoke && name in smoke ? smoke[name] : (option.default ?? (option.type === "boolean" ? false : undefined)));
  }
  return filled as Values<O>;
}

/** A bench's command line it cannot run with: one line saying why, exit 2. */
export function refuse(why: string): never {
  console.error(`✖ ${path.relative(ROOT, process.argv[1] ?? "bench")} cannot run: ${why.split("\n")[0]}`);
  process.exit(2);
}

/** The first line of what went wrong. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n").find((line) => line.trim()) ?? "failed";
}

/** Fails fast, in one line, when the database server the bench needs is not there. */
async function preflight(): Promise<void> {
  const url = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `cannot reach Postgres at ${url.replace(/\/\/[^@]*@/, "//")} (${(error as Error).message}); start it or set BENCH_ADMIN_URL`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs a bench's `main`: on success prints the settings its apps ran with; on failure one line
 * `✖ <name> cannot run: <why>` (the whole error in bench/results/<name>-error.log) and exit 1.
 */
export function runBench(name: string, main: () => Promise<void>): void {
  preflight()
    .then(main)
    .then(() => console.log(`\n${settingsLine()}`))
    .catch((error: unknown) => {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const file = path.join(RESULTS_DIR, `${name.replace(/[^a-z0-9]+/gi, "-")}-error.log`);
      writeFileSync(file, error instanceof Error ? `${error.stack ?? error.message}\n` : `${String(error)}\n`);
      console.error(`✖ ${name} cannot run: ${reason(error)} (details: ${path.relative(ROOT, file)})`);
      process.exit(1);
    });
}
