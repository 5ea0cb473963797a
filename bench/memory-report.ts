/** The "## Memory" section of docs/benchmarks/memory.md, from one `npm run bench:memory` run. */
import type { HeapGrowth } from "./memory-heap.ts";
import type { Machine } from "./system.ts";

/** One reading of one server, MiB. */
export interface Measure {
  label: string;
  /** The server process alone, and with its parents of the same command (the tsx CLI). */
  rss: number;
  treeRss: number;
  processes: number;
  /** The highest RSS sampled (every 250 ms) during the load before this reading. */
  peakRss: number;
  /** The server's CPU per request during the load before this reading, ms. */
  cpuMs?: number;
  used: number;
  total: number;
  external: number;
}

export interface VariantRun {
  variant: string;
  readySeconds: number;
  idle: Measure;
  /** Idle again `settleSeconds` after ready, V8's memory reducer having run. */
  idleSettled: Measure;
  afterRequests: Measure;
  rounds: Measure[];
  growth: HeapGrowth[];
  /** The live heap (what a snapshot holds after V8's full collection) before and after a third round, MiB. */
  liveMiB?: [number, number];
}

export interface MemoryReport {
  date: string;
  machine: Machine;
  build: string;
  commit: string;
  requests: number;
  roundSeconds: number;
  settleSeconds: number;
  concurrency: number;
  load: string;
  nodeOptions?: string;
  runs: VariantRun[];
}

const f0 = (v: number) => v.toFixed(0);
const signed = (v: number) => `${v >= 0 ? "+" : ""}${v.toFixed(1)}`;

const VARIANT_NAMES: Record<string, string> = {
  tsx: "before: `tsx scripts/serve.ts` (the tsx CLI + the server in a child node)",
  compiled: "after: `node dist/server/serve.js`",
  "compiled-maps": "`node --enable-source-maps dist/server/serve.js` (as before, Node keeping every module's source map)",
};

export function memoryMarkdown(r: MemoryReport, resultsFile: string): string {
  const m = r.machine;
  const lines = [
    "## Memory",
    "",
    `\`npm run bench:memory -- --requests ${r.requests} --round-seconds ${r.roundSeconds} --settle-seconds ${r.settleSeconds} --concurrency ${r.concurrency}\` (bench/memory.ts), ${r.date.slice(0, 16).replace("T", " ")} UTC, commit ${r.commit} (${r.build}).`,
    ...(r.nodeOptions ? [`Node flags of the servers (BENCH_NODE_OPTIONS): \`${r.nodeOptions}\`.`] : []),
    `Machine: ${m.nproc} cores (${m.cpuModel}), ${m.memTotalGiB} GiB, Node ${m.node}, ${m.postgres.split(" on ")[0]} (load average at the end of the run: ${r.load}).`,
    "",
    "One instance per variant, each on a fresh database (2,000 tenants, one tenant with a webhook to a local receiver), INTERNAL_CRON on. " +
      "Mix per 100 requests: 50 REST reads, 20 audit appends (each delivered to the webhook), 20 console pages (signed in, server-rendered), 9 readiness probes, 1 CSV export. " +
      `Idle: 2 s after the server is ready (start-up's garbage still in the heap, the young generation at the size start-up grew it to), and settled: ${r.settleSeconds} s after ready, still without a request, once V8's memory reducer has shrunk the young generation (what an idle instance holds). ` +
      'RSS from /proc (MiB; "tree" adds the tsx CLI process where there is one); heap = V8 heap used (MiB, /api/metrics); peak = the highest RSS sampled every 250 ms under load. ' +
      "Heap snapshots (V8 collects garbage first) come last, after the two rounds: writing one keeps the RSS up by about the heap's size.",
    "",
    "| server | ready in | idle RSS (tree) / heap | idle settled RSS / heap | after requests RSS / heap | peak RSS under load | round 1 RSS / heap / CPU ms per request | round 2 RSS / heap / CPU ms per request | round 2 − round 1 | live heap before → after a 3rd round |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...r.runs.map((run) => {
      const [a, b] = run.rounds as [Measure, Measure];
      const peak = Math.max(run.afterRequests.peakRss, a.peakRss, b.peakRss);
      const live = run.liveMiB ? `${run.liveMiB[0].toFixed(1)} → ${run.liveMiB[1].toFixed(1)}` : "—";
      return `| ${VARIANT_NAMES[run.variant] ?? run.variant} | ${run.readySeconds.toFixed(1)} s | ${f0(run.idle.rss)} (${f0(run.idle.treeRss)}) / ${f0(run.idle.used)} | ${f0(run.idleSettled.rss)} / ${f0(run.idleSettled.used)} | ${f0(run.afterRequests.rss)} / ${f0(run.afterRequests.used)} | ${f0(peak)} | ${f0(a.rss)} / ${f0(a.used)} / ${a.cpuMs?.toFixed(2)} | ${f0(b.rss)} / ${f0(b.used)} / ${b.cpuMs?.toFixed(2)} | RSS ${signed(b.rss - a.rss)}, heap ${signed(b.used - a.used)} | ${live} |`;
    }),
    "",
  ];
  for (const run of r.runs.filter((x) => x.growth.length)) {
    lines.push(
      `What grew in the live heap over the third round (${run.variant}; heap snapshots before and after, own size of each constructor's objects and their count):`,
      "",
      "| constructor | KiB | objects |",
      "|---|---|---|",
      ...run.growth.map((g) => `| \`${g.group}\` | ${signed(g.kibDelta)} | ${g.countDelta >= 0 ? "+" : ""}${g.countDelta} |`),
      "",
    );
  }
  lines.push(`Raw results: \`${resultsFile}\` (not committed).`);
  return lines.join("\n");
}
