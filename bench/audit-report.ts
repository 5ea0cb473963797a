/** The audit benchmark's report: medians per scenario, ratios to the same run's baselines, targets. */
import type { Machine } from "./system.ts";
import type { Sizes } from "./audit-big.ts";
import { median } from "./report.ts";
import { planCostsMarkdown, type PlanCost } from "./audit-plans.ts";

/** The sections of docs/benchmarks/audit.md: a partial run (--only) writes its own, so the full run's stays as it was. */
export const FULL_HEADING = "## Audit log: full run";
export const PARTIAL_HEADING = "## Audit log: large tenant and appends";

/** The file under docs/benchmarks/ a run's query plans go to (long: three plans per filter), one per kind of run. */
export const plansFile = (report: AuditReport) => `audit-plans-${report.partial ? "partial" : "full"}-run.md`;

export interface ListRun {
  scenario: string;
  target: "app" | "baseline";
  rps: number;
  p50: number;
  p99: number;
}

export interface BigRun {
  filter: string;
  page: "first" | "deep";
  target: "app" | "baseline";
  rps: number;
  p50: number;
  p99: number;
  count: number;
  load1: number;
}

interface ExportRun {
  app: { seconds: number; rows: number; bytes: number; rssGrowthMiB: number; rssBeforeMiB: number };
  copy: { seconds: number; rows: number };
}

export interface AuditReport {
  date: string;
  machine: Machine;
  build: string;
  totalEvents: number;
  filter: string;
  durationSeconds: number;
  reps: number;
  list: ListRun[];
  exports: ExportRun[];
  appends: {
    label: string;
    connections: number;
    eventsPerSecond: number;
    p99: number;
    load1?: number;
    workers?: number;
    appCpuMsPerRequest?: number;
    dbCpuMsPerRequest?: number;
    otherCores?: number;
    /** Every rep's events/s, in the order run (the row is the median rep's). */
    repsEventsPerSecond?: number[];
  }[];
  verifiedChain?: number;
  /** The parts measured, when not all (--only). */
  partial?: string[];
  big?: {
    events: number;
    runs: BigRun[];
    plans: { filter: string; count: string; first: string; deep: string }[];
    planCosts?: PlanCost[];
    verify: { seconds: number; checked: number };
    sizes: Sizes;
  };
}

const ok = (pass: boolean) => (pass ? "met" : "**missed**");
const fmt = (n: number, digits = 0) => n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function auditMarkdown(report: AuditReport, resultsFile: string): string {
  const m = report.machine;
  const lines = [
    report.partial ? PARTIAL_HEADING : FULL_HEADING,
    "",
    `Command: \`npm run bench:audit\` (bench/audit.ts${report.partial ? `, parts: ${report.partial.join(", ")}` : ""}). Run ${report.date.slice(0, 16).replace("T", " ")} UTC on ${m.nproc} × ${m.cpuModel}, ` +
      `${m.memTotalGiB} GiB, Node ${m.node}, ${m.postgres.split(" on ")[0]}; ${report.build}. Raw numbers: \`${resultsFile}\`.`,
    "",
    `Data: ${fmt(report.totalEvents)} events (over 50 tenants, plus one export tenant), seeded through the chain trigger. ` +
      `List filter: \`${report.filter}\` (prefix expansion, date range, counted), rotating over the 50 tenants, 10 connections, ` +
      `${report.durationSeconds} s × ${report.reps} reps alternating app and baseline (bare node:http + pg running the app's SQL); medians.`,
    "",
    "| Scenario | App req/s | Baseline req/s | App/baseline | App p99 | Baseline p99 | Targets (≥ 50%, p99 < 50 ms) |",
    "|---|---|---|---|---|---|---|",
  ];
  if (!report.list.length) lines.splice(lines.length - 4, 4);
  for (const scenario of report.list.length ? ["first", "deep"] : []) {
    const runs = (target: string) => report.list.filter((r) => r.scenario === scenario && r.target === target);
    const app = { rps: median(runs("app").map((r) => r.rps)), p99: median(runs("app").map((r) => r.p99)) };
    const base = { rps: median(runs("baseline").map((r) => r.rps)), p99: median(runs("baseline").map((r) => r.p99)) };
    const ratio = app.rps / base.rps;
    lines.push(
      `| ${scenario === "first" ? "first page" : "deep cursor page (page 150)"} | ${fmt(app.rps)} | ${fmt(base.rps)} | ${fmt(ratio * 100)}% | ${app.p99} ms | ${base.p99} ms | ${ok(ratio >= 0.5)}, ${ok(app.p99 < 50)} |`,
    );
  }
  const appSeconds = median(report.exports.map((e) => e.app.seconds));
  const copySeconds = median(report.exports.map((e) => e.copy.seconds));
  const rows = report.exports[0]?.app.rows ?? 0;
  const growth = Math.max(...report.exports.map((e) => e.app.rssGrowthMiB));
  const exportRatio = copySeconds / appSeconds;
  if (report.exports.length)
    lines.push(
      "",
      "| Export of one tenant as CSV | Rows | Time (median) | Rows/s | Ratio to COPY | RSS growth (max) | Targets (≥ 50% of COPY, RSS < 100 MB) |",
      "|---|---|---|---|---|---|---|",
      `| app, \`GET …/audit/export?format=csv\` streamed | ${fmt(rows)} | ${appSeconds.toFixed(2)} s | ${fmt(rows / appSeconds)} | ${fmt(exportRatio * 100)}% | ${fmt(growth, 1)} MiB | ${ok(exportRatio >= 0.5)}, ${ok(growth < 100)} |`,
      `| \`psql \\copy (select …) to file csv\` | ${fmt(report.exports[0]?.copy.rows ?? 0)} | ${copySeconds.toFixed(2)} s | ${fmt(rows / copySeconds)} | 100% | – | |`,
    );
  if (report.appends.length)
    lines.push(
      "",
      "| Appends to one tenant's chain | Events/s (median rep) | every rep | p99 per request | app CPU / request | Postgres CPU / request | other load (cores) | load avg (1 min) | Target (≥ 2,000 events/s) |",
      "|---|---|---|---|---|---|---|---|---|",
      ...report.appends.map(
        (a) =>
          `| ${a.label} | ${fmt(a.eventsPerSecond)} | ${(a.repsEventsPerSecond ?? [a.eventsPerSecond]).map((r) => fmt(r)).join(" / ")} | ${a.p99} ms | ${a.appCpuMsPerRequest === undefined ? "–" : `${fmt(a.appCpuMsPerRequest, 2)} ms`} | ${a.dbCpuMsPerRequest === undefined ? "–" : `${fmt(a.dbCpuMsPerRequest, 2)} ms`} | ${a.otherCores === undefined ? "–" : fmt(a.otherCores, 2)} | ${fmt(a.load1 ?? 0, 1)} | ${ok(a.eventsPerSecond >= 2000)} |`,
      ),
      "",
      `After the append load the chain verified intact (\`GET …/audit/verify\`: valid, ${fmt(report.verifiedChain ?? 0)} events checked).`,
      "",
    );
  lines.push("");
  if (report.big) lines.push(...bigMarkdown(report.big, plansFile(report)));
  return lines.join("\n");
}

/** A plan over many partitions, with the middle (a scan per partition) left out. */
function abridge(plan: string, head = 14, tail = 8): string {
  const lines = plan.split("\n");
  if (lines.length <= head + tail + 1) return plan;
  return [
    ...lines.slice(0, head),
    `  … ${lines.length - head - tail} more lines (the same scan on each other partition) …`,
    ...lines.slice(-tail),
  ].join("\n");
}

/** The large tenant: every filter's first and deep page vs the baseline, sizes, verify, and where its plans are. */
function bigMarkdown(big: NonNullable<AuditReport["big"]>, plans: string): string[] {
  const lines = [
    `### One tenant with ${fmt(big.events)} events`,
    "",
    "Same seed (a year of events, 14 kinds, 200 actors), one tenant; each filter's first page and the cursor page after page 150, " +
      "10 connections, medians of the reps, app and baseline alternating. count = the envelope's exact count (equal on both).",
    "",
    "| Filter | Page | count | App req/s | Baseline req/s | App/baseline | App p50 / p99 | Baseline p50 / p99 | load avg (1 min) | p99 < 50 ms |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  const filters = [...new Set(big.runs.map((r) => r.filter))];
  for (const filter of filters) {
    for (const page of ["first", "deep"] as const) {
      const runs = (target: string) => big.runs.filter((r) => r.filter === filter && r.page === page && r.target === target);
      const a = runs("app");
      const b = runs("baseline");
      if (!a.length) continue;
      const app = { rps: median(a.map((r) => r.rps)), p50: median(a.map((r) => r.p50)), p99: median(a.map((r) => r.p99)) };
      const base = { rps: median(b.map((r) => r.rps)), p50: median(b.map((r) => r.p50)), p99: median(b.map((r) => r.p99)) };
      const load = median([...a, ...b].map((r) => r.load1));
      lines.push(
        `| ${filter} | ${page === "first" ? "first" : "deep cursor"} | ${fmt(a[0]!.count)} | ${fmt(app.rps)} | ${fmt(base.rps)} | ${fmt((app.rps / base.rps) * 100)}% | ${app.p50} / ${app.p99} ms | ${base.p50} / ${base.p99} ms | ${fmt(load, 1)} | ${ok(app.p99 < 50)} |`,
      );
    }
  }
  const perMillion = (mib: number) => fmt(mib / (big.sizes.events / 1e6), 1);
  lines.push(
    "",
    `Verify of the whole tenant (\`GET …/audit/verify\`): ${fmt(big.verify.checked)} events in ${big.verify.seconds.toFixed(1)} s ` +
      `(${fmt(big.verify.checked / big.verify.seconds)} events/s).`,
    "",
    `Sizes over all ${fmt(big.sizes.events)} events of the run (all tenants), per million events:`,
    "",
    "| Relation | MiB | MiB per million events |",
    "|---|---|---|",
    `| audit_events (all partitions, heap + TOAST) | ${fmt(big.sizes.tableMiB)} | ${perMillion(big.sizes.tableMiB)} |`,
    ...big.sizes.indexes.map((i) => `| index ${i.name} | ${fmt(i.mib)} | ${perMillion(i.mib)} |`),
    `| audit_counts (${fmt(big.sizes.countsRows)} rollup rows, with its index) | ${fmt(big.sizes.countsMiB)} | ${perMillion(big.sizes.countsMiB)} |`,
    "",
  );
  if (big.planCosts?.length)
    lines.push(
      "",
      `Planning against execution (EXPLAIN (ANALYZE, SUMMARY), ${big.planCosts[0]!.partitions} partitions of audit_events; medians, ms): ` +
        "each statement planned per call, and prepared as the app runs it once Postgres has switched to its generic plan (runs 7–9).",
      "",
      planCostsMarkdown(big.planCosts),
    );
  lines.push(
    "",
    `Plans (EXPLAIN ANALYZE, BUFFERS) of the count and the page queries the app runs, from the same database: [${plans}](${plans}).`,
    "",
  );
  return lines;
}

/** The whole of the run's plans file (plansFile): the count and page plans of every filter on the large tenant. */
export function auditPlansMarkdown(report: AuditReport, big: NonNullable<AuditReport["big"]>, resultsFile: string): string {
  const lines = [
    `# Audit list plans: ${report.partial ? "partial" : "full"} run of ${report.date.slice(0, 16).replace("T", " ")} UTC`,
    "",
    `Written by \`npm run bench:audit\` (bench/audit.ts${report.partial ? `, parts: ${report.partial.join(", ")}` : ""}); its figures are in ` +
      `[audit.md](audit.md), section "${(report.partial ? PARTIAL_HEADING : FULL_HEADING).slice(3)}". Raw numbers: \`${resultsFile}\`.`,
    "",
    `Plans (EXPLAIN ANALYZE, BUFFERS) of the count and the page queries the app runs, on the tenant with ${fmt(big.events)} events:`,
    "",
  ];
  for (const plan of big.plans) {
    lines.push(
      `<details><summary>${plan.filter}</summary>`,
      "",
      "Count:",
      "",
      "```",
      abridge(plan.count),
      "```",
      "",
      "First page:",
      "",
      "```",
      abridge(plan.first),
      "```",
      "",
      "Deep cursor page:",
      "",
      "```",
      abridge(plan.deep),
      "```",
      "",
      "</details>",
      "",
    );
  }
  return lines.join("\n");
}
