/** The benchmark's numbers as a console table, JSON, and the "Tenants API" section of docs/benchmarks/tenants-api.md. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Machine } from "./system.ts";

export type TargetName = "app" | "baseline";

export interface Measurement {
  scenario: string;
  target: TargetName;
  rep: number;
  durationSeconds: number;
  requests: number;
  reqPerSec: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  cpu: {
    serverCores: number;
    databaseCores: number;
    loadGeneratorCores: number;
    otherCores: number;
    stealCores: number;
    serverMsPerRequest: number;
    databaseMsPerRequest: number;
  };
}

export interface Summary {
  scenario: string;
  target: TargetName;
  reps: number;
  /** Medians over the repetitions. */
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  serverMsPerRequest: number;
  databaseMsPerRequest: number;
  otherCores: number;
  stealCores: number;
  /** Min and max over the repetitions, to show the spread. */
  reqPerSecRange: [number, number];
  p99Range: [number, number];
}

export interface Verdict {
  scenario: string;
  throughputRatio: number;
  throughputTarget: number;
  throughputMet: boolean;
  p99Ratio: number;
  p99Target: number;
  p99Met: boolean;
}

export interface Report {
  date: string;
  command: string;
  git: { commit: string; dirtyAppFiles: string[] };
  machine: Machine;
  settings: {
    connections: number;
    durationSeconds: number;
    warmupSeconds: number;
    reps: number;
    seedTenants: number;
    poolSize: number;
    build: string;
  };
  scenarios: Record<string, string>;
  measurements: Measurement[];
  summary: Summary[];
  verdicts: Verdict[];
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export function summarize(measurements: Measurement[], scenarios: string[]): Summary[] {
  const out: Summary[] = [];
  for (const scenario of scenarios) {
    for (const target of ["app", "baseline"] as const) {
      const runs = measurements.filter((m) => m.scenario === scenario && m.target === target);
      if (!runs.length) continue;
      const rps = runs.map((m) => m.reqPerSec);
      const p99 = runs.map((m) => m.latencyMs.p99);
      out.push({
        scenario,
        target,
        reps: runs.length,
        reqPerSec: median(rps),
        p50: median(runs.map((m) => m.latencyMs.p50)),
        p99: median(p99),
        non2xx: runs.reduce((sum, m) => sum + m.non2xx, 0),
        serverMsPerRequest: median(runs.map((m) => m.cpu.serverMsPerRequest)),
        databaseMsPerRequest: median(runs.map((m) => m.cpu.databaseMsPerRequest)),
        otherCores: median(runs.map((m) => m.cpu.otherCores)),
        stealCores: median(runs.map((m) => m.cpu.stealCores)),
        reqPerSecRange: [Math.min(...rps), Math.max(...rps)],
        p99Range: [Math.min(...p99), Math.max(...p99)],
      });
    }
  }
  return out;
}

export const THROUGHPUT_TARGET = 0.5;
export const P99_TARGET = 2;

export function verdicts(summary: Summary[], scenarios: string[]): Verdict[] {
  return scenarios.flatMap((scenario) => {
    const app = summary.find((s) => s.scenario === scenario && s.target === "app");
    const base = summary.find((s) => s.scenario === scenario && s.target === "baseline");
    if (!app || !base) return [];
    const throughputRatio = app.reqPerSec / base.reqPerSec;
    const p99Ratio = app.p99 / Math.max(base.p99, 1);
    return [
      {
        scenario,
        throughputRatio,
        throughputTarget: THROUGHPUT_TARGET,
        throughputMet: throughputRatio >= THROUGHPUT_TARGET,
        p99Ratio,
        p99Target: P99_TARGET,
        p99Met: p99Ratio <= P99_TARGET,
      },
    ];
  });
}

const fmt = (value: number, digits = 0) => value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(header: string[], rows: string[][], align: ("l" | "r")[]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const rule = `|${align.map((a) => (a === "r" ? "---:" : ":---")).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

function numbersTable(report: Report): string {
  return table(
    [
      "Scenario",
      "Server",
      "req/s",
      "p50 ms",
      "p99 ms",
      "non-2xx",
      "server CPU ms/req",
      "Postgres CPU ms/req",
      "other load / steal (cores)",
      "req/s range",
      "p99 range",
    ],
    report.summary.map((s) => [
      report.scenarios[s.scenario] ?? s.scenario,
      s.target,
      fmt(s.reqPerSec),
      fmt(s.p50),
      fmt(s.p99),
      String(s.non2xx),
      fmt(s.serverMsPerRequest, 2),
      fmt(s.databaseMsPerRequest, 2),
      `${fmt(s.otherCores, 2)} / ${fmt(s.stealCores, 2)}`,
      `${fmt(s.reqPerSecRange[0])}–${fmt(s.reqPerSecRange[1])}`,
      `${fmt(s.p99Range[0])}–${fmt(s.p99Range[1])}`,
    ]),
    ["l", "l", "r", "r", "r", "r", "r", "r", "r", "r", "r"],
  );
}

function verdictTable(report: Report): string {
  return table(
    ["Scenario", "app/baseline req/s", "target", "met?", "app/baseline p99", "target", "met?", "app/baseline server CPU per request"],
    report.verdicts.map((v) => {
      const cpu = (target: TargetName) =>
        report.summary.find((s) => s.scenario === v.scenario && s.target === target)?.serverMsPerRequest ?? NaN;
      return [
        report.scenarios[v.scenario] ?? v.scenario,
        `${fmt(v.throughputRatio * 100)}%`,
        `≥ ${fmt(v.throughputTarget * 100)}%`,
        v.throughputMet ? "**yes**" : "**NO**",
        `${fmt(v.p99Ratio, 1)}×`,
        `≤ ${fmt(v.p99Target, 1)}×`,
        v.p99Met ? "**yes**" : "**NO**",
        `${fmt(cpu("app") / cpu("baseline"), 1)}× (informational)`,
      ];
    }),
    ["l", "r", "r", "l", "r", "r", "l", "r"],
  );
}

export function consoleReport(report: Report): string {
  return `${numbersTable(report)}\n\n${verdictTable(report)}`;
}

export function markdownSection(report: Report, resultsFile: string): string {
  const m = report.machine;
  const s = report.settings;
  const met = report.verdicts.filter((v) => v.throughputMet && v.p99Met).map((v) => report.scenarios[v.scenario]);
  const missed = report.verdicts.filter((v) => !(v.throughputMet && v.p99Met)).map((v) => report.scenarios[v.scenario]);
  const otherLoad = median(report.measurements.map((x) => x.cpu.otherCores));
  const steal = median(report.measurements.map((x) => x.cpu.stealCores));
  const dirty = report.git.dirtyAppFiles.length
    ? ` plus uncommitted changes to ${report.git.dirtyAppFiles.length} app file(s) (${report.git.dirtyAppFiles.slice(0, 6).join(", ")}${report.git.dirtyAppFiles.length > 6 ? ", …" : ""})`
    : "";
  const plain =
    missed.length === 0
      ? "**All targets are met.**"
      : `**Targets not met** for: ${missed.join("; ")}.${met.length ? ` Met for: ${met.join("; ")}.` : ""}`;

  return `## Tenants API

Command: \`${report.command}\` (builds the app into \`.next-bench\` when the build is older than the
sources, creates the database \`cp_bench\`, runs everything, drops \`cp_bench\` at the end).

- Date: ${report.date}; tree at commit \`${report.git.commit}\`${dirty}.
- Machine: ${m.nproc} CPUs (\`nproc\`), ${m.memTotalGiB} GiB RAM, ${m.cpuModel}; Linux ${m.kernel}; Node ${m.node};
  ${m.postgres.replace(/ on .*/, "")} on 127.0.0.1.
- The machine is shared: other processes used a median **${fmt(otherLoad, 2)} cores** (of ${m.nproc}) during the
  measurements, and the hypervisor stole a median ${fmt(steal, 2)} cores (column "other load / steal").
  Read the absolute numbers with that in mind; app and baseline runs alternate in time, so the
  ratios are fairer than the absolute numbers, and CPU ms per request is the steadiest figure.

**Method.** A fresh database with ${fmt(s.seedTenants)} tenants (created_at spread over ~35 days), the app's
production build (\`next build\` in compile + generate mode; \`next start\`, NODE_ENV=production,
LOG_LEVEL=warn) and the baseline (\`bench/baseline.ts\`: bare \`node:http\` + \`pg\` Pool of ${s.poolSize}, the
same SQL, no framework), each its own process. autocannon at **${s.connections} connections**: first a warm-up
round (${s.warmupSeconds} s of every scenario on both servers), then per scenario **${s.reps} repetitions** on each server,
app and baseline alternating, each 1 s warm-up + **${s.durationSeconds} s measured**; the table shows the **median** of
the repetitions (and their range).
req/s = responses / measured seconds; latency from autocannon's histogram (1 ms resolution);
CPU ms/req = CPU time of the server process (or of its Postgres backends) / responses. POST rows
are deleted (and the tables vacuumed) after each POST run, so every run starts at ${fmt(s.seedTenants)} tenants.

Scenarios: ${Object.entries(report.scenarios)
    .map(([, label]) => `\`${label}\``)
    .join(", ")}
(the cursor is the \`next_cursor\` of page 250 of 500; every POST carries a fresh \`Idempotency-Key\`
and name). Every response was 2xx (the run fails otherwise).

${numbersTable(report)}

### Targets

At ${s.connections} connections the app should reach **≥ 50% of the baseline's throughput** with **p99 ≤ 2× the
baseline's**. (The team measured the bare baseline at about 1,600 req/s, p99 16 ms for the first
page with 10k rows and a count; on this shared machine it measured ${fmt(report.summary.find((x) => x.scenario === "list" && x.target === "baseline")?.reqPerSec ?? 0)} req/s, p99 ${fmt(report.summary.find((x) => x.scenario === "list" && x.target === "baseline")?.p99 ?? 0)} ms.)

${verdictTable(report)}

${plain}

Raw numbers of this run: \`${resultsFile}\` (git-ignored). Where the app's time goes (SQL per request,
cost per layer, Prisma against pg, CPU profile by package): \`npx tsx --import ./scripts/server-only.mjs bench/profile.ts\`.
`;
}

/** Replaces the `heading` section of a Markdown file (or adds it, or creates the file), keeping the rest. */
export function replaceSection(file: string, section: string, heading: string): void {
  let text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const start = text.indexOf(`${heading}\n`);
  if (start === -1) {
    text = text ? `${text.trimEnd()}\n\n${section}` : section;
  } else {
    const rest = text.slice(start + heading.length);
    const next = rest.search(/\n## /);
    const end = next === -1 ? text.length : start + heading.length + next + 1;
    text = `${text.slice(0, start)}${section}${next === -1 ? "" : `\n${text.slice(end)}`}`;
  }
  writeFileSync(file, text.endsWith("\n") ? text : `${text}\n`);
}
