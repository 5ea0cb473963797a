/** The "## Webhooks" section of docs/benchmarks/webhooks.md, from one `npm run bench:webhooks` run. */
import type { Machine } from "./system.ts";

export interface WebhooksRun {
  instances: number;
  rep: number;
  /** 1-minute load average when the rep started. */
  load1: number;
  deliveriesPerSecond: number;
  appendsPerSecond: number;
  backlogSeconds: number;
  paced: { offeredPerSecond: number; p50: number; p99: number; max: number };
}

export interface WebhooksReport {
  date: string;
  machine: Machine;
  build: string;
  commit: string;
  events: number;
  pacedEvents: number;
  webhooks: number;
  concurrency: number;
  reps: number;
  runs: WebhooksRun[];
  verifiedDeliveries: number;
  signaturesChecked: number;
  uptime: string;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const n0 = (v: number) => Math.round(v).toLocaleString("en-US");

export function webhooksMarkdown(r: WebhooksReport, resultsFile: string): string {
  const m = r.machine;
  const byInstances = [...new Set(r.runs.map((run) => run.instances))];
  const lines = [
    "## Webhooks",
    "",
    `\`npm run bench:webhooks -- --events ${r.events} --paced-events ${r.pacedEvents} --reps ${r.reps}\` (bench/webhooks.ts), ${r.date.slice(0, 16).replace("T", " ")} UTC, commit ${r.commit} (${r.build}; /api/v1 and the dispatcher run from source in scripts/serve.ts, so only the console depends on the build).`,
    `Machine: ${m.nproc} cores (${m.cpuModel}), ${m.memTotalGiB} GiB, Node ${m.node}, ${m.postgres.split(" on ")[0]}, shared with other engineers' test runs (load average at the end: ${r.uptime}).`,
    "",
    `One receiver (node:http on 127.0.0.1, answers 200 at once), ${r.webhooks} webhooks subscribed to \`*\` in one tenant, created over REST. ` +
      `Backlog: ${n0(r.events)} events appended (POST …/audit, ${r.concurrency} at a time) and fanned out by the app's outbox to ${n0(r.events * r.webhooks)} deliveries, held back by a bench-only trigger, then released at once (one UPDATE + pg_notify); deliveries/s = deliveries ÷ (last receipt − release). ` +
      `Paced: ${n0(r.pacedEvents)} events at the target rate (500 deliveries/s per instance). ` +
      "Latency = receipt at the receiver − the event's `created_at` (the audit row's timestamp: the start of the append's transaction), first attempts only. " +
      "With two instances both app processes dispatch from the same database and the appends alternate between them.",
    "",
    "| instances | rep | load (1 min) | backlog deliveries/s | backlog drained in | appends/s (before) | paced offered | paced p50 / p99 / max |",
    "|---|---|---|---|---|---|---|---|",
    ...r.runs.map(
      (run) =>
        `| ${run.instances} | ${run.rep} | ${run.load1.toFixed(1)} | ${n0(run.deliveriesPerSecond)} | ${run.backlogSeconds.toFixed(1)} s | ${n0(run.appendsPerSecond)} | ${n0(run.paced.offeredPerSecond)}/s | ${n0(run.paced.p50)} / ${n0(run.paced.p99)} / ${n0(run.paced.max)} ms |`,
    ),
    "",
    "Medians:",
    "",
  ];
  for (const instances of byInstances) {
    const runs = r.runs.filter((run) => run.instances === instances);
    const rate = median(runs.map((run) => run.deliveriesPerSecond));
    const p99 = median(runs.map((run) => run.paced.p99));
    const rateOk = rate / instances >= 500;
    lines.push(
      `- ${instances} instance${instances > 1 ? "s" : ""}: **${n0(rate)} deliveries/s** (${n0(rate / instances)} per instance: target ≥ 500 ${rateOk ? "met" : "missed"}); ` +
        `first attempt at the target rate p50 ${n0(median(runs.map((run) => run.paced.p50)))} ms, **p99 ${n0(p99)} ms** (target < 1 s ${p99 < 1000 ? "met" : "missed"}).`,
    );
  }
  lines.push(
    "",
    `Checked: every (event, webhook) received exactly once, all ${n0(r.verifiedDeliveries)} delivery rows \`succeeded\` after one attempt, ${r.signaturesChecked} sampled X-Webhook-Signature values verified. Raw results: \`${resultsFile}\`.`,
    "",
  );
  return lines.join("\n");
}
