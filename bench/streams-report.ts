/** bench/streams.ts's report: the medians it checks, and its section of docs/benchmarks/streams.md. */
import { median } from "./report.ts";
import type { Machine } from "./system.ts";
import type { BackfillRun, LiveRun } from "./streams-measure.ts";

export interface StreamsReport {
  startedAt: string;
  commit: string;
  machine: Machine;
  load: { before: number[]; after: number[] };
  command: string;
  batchWaitMs: string;
  seedSeconds: number;
  /** s3 and s3-discard alternating, per rep. */
  backfills: BackfillRun[];
  copies: { seconds: number; eventsPerSecond: number }[];
  perType: BackfillRun[];
  live: LiveRun;
}

/** The figures the bench stands on (each must come out finite and above 0). */
export function summarize(r: StreamsReport) {
  const rate = (receiver: string) => median(r.backfills.filter((b) => b.receiver === receiver).map((b) => b.eventsPerSecond));
  const copy = median(r.copies.map((c) => c.eventsPerSecond));
  return {
    s3EventsPerSecond: rate("s3"),
    discardEventsPerSecond: rate("s3-discard"),
    copyEventsPerSecond: copy,
    s3RatioToCopy: rate("s3") / copy,
    s3AppCpuMs: median(r.backfills.filter((b) => b.receiver === "s3").map((b) => b.appCpuMs)),
    liveP99Ms: Math.max(r.live.p99Ms, 1),
    ...Object.fromEntries(r.perType.map((run) => [`perType_${run.receiver}_AppCpuMs`, run.appCpuMs])),
  };
}

const n0 = (n: number) => Math.round(n).toLocaleString("en");
const f1 = (n: number) => n.toFixed(1);
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

export function streamsMarkdown(r: StreamsReport, resultsFile: string): string {
  const s = summarize(r);
  const m = r.machine;
  const events = r.backfills[0]?.events ?? 0;
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(", ");
  const row = (b: BackfillRun, rep?: string) =>
    `|${rep === undefined ? "" : ` ${rep} |`} ${b.receiver} | ${n0(b.events)} | ${f1(b.seconds)} s | **${n0(b.eventsPerSecond)}** | ${f1(b.appCpuMs)} | ${f1(b.dbCpuMs)} | ${b.cores.app.toFixed(2)} / ${b.cores.db.toFixed(2)} / ${b.cores.bench.toFixed(2)} / ${b.cores.other.toFixed(2)} |`;
  const reps = Math.max(1, r.copies.length);
  return [
    "## Log streams",
    "",
    `\`${r.command}\` (bench/streams.ts), ${r.startedAt.slice(0, 16).replace("T", " ")} UTC, commit ${r.commit}; the app is bench/api-server.ts (\`npm start\`'s start-up and REST edge, log-stream dispatcher included, without the console), LOG_STREAM_BATCH_WAIT_MS ${r.batchWaitMs}.`,
    `Machine: ${m.nproc} cores (${m.cpuModel}), ${m.memTotalGiB} GiB, Node ${m.node}, ${m.postgres.split(" on ")[0]}, shared with other engineers' work (load average before: ${load(r.load.before)}; after: ${load(r.load.after)}).`,
    "",
    `### Backfill of ${n0(events)} events to S3`,
    "",
    `A stream with \`start_from: oldest\` over one tenant's ${n0(events)} seeded events (+ the stream's own \`log_stream.created\`), timed from the create's 201 until the stream's cursor passes the seeded events (the newer events after them are live ones, sent when LOG_STREAM_BATCH_WAIT_MS says; the dispatcher's first look, up to LOG_STREAM_POLL_MS = 1 s after the create, is in the time). ` +
      "`s3` is s3rver 3.7 in the bench's process (objects on disk); `s3-discard` answers every PUT 200 and drops the body (the engine's upper bound). " +
      "CPU ms per 1,000 events from /proc; cores: app / Postgres / bench process (receivers) / everything else on the machine.",
    "",
    "| rep | receiver | events | time | events/s | app CPU ms / 1k | Postgres CPU ms / 1k | cores app / pg / bench / other |",
    "|---|---|---|---|---|---|---|---|",
    ...r.backfills.map((b, i) => row(b, String(Math.floor(i / 2) + 1))),
    "",
    `\`COPY (SELECT <the engine's columns> … same rows ORDER BY sequence) TO STDOUT\` through psql, once per rep: ${r.copies.map((c) => `${f1(c.seconds)} s`).join(", ")}.`,
    "",
    `Medians of ${reps} rep${reps > 1 ? "s" : ""}: **${n0(s.s3EventsPerSecond)} events/s to s3rver** (target ≥ 50,000: ${s.s3EventsPerSecond >= 50_000 ? "met" : "missed"}), ` +
      `${n0(s.discardEventsPerSecond)} events/s to the discard endpoint; COPY ${n0(s.copyEventsPerSecond)} rows/s: ` +
      `the backfill runs at **${pct(s.s3RatioToCopy)} of COPY** (discard: ${pct(s.discardEventsPerSecond / s.copyEventsPerSecond)}). ` +
      `At its median CPU cost (${f1(s.s3AppCpuMs)} app CPU ms per 1,000 events to s3rver), one app core that had nothing else to do would stream ${n0(1_000_000 / s.s3AppCpuMs)} events/s.`,
    "",
    "### CPU per 1,000 events streamed, per type",
    "",
    `A backfill of ${n0(r.perType[0]?.events ?? 0)} events per type against its local receiver (s3: s3rver; datadog and splunk_hec: the test suite's intakes, checked against the vendors' clients; https: a bare node:http receiver, batches signed; syslog: rsyslogd over TLS, one message per event).`,
    "",
    "| type | events | time | events/s | app CPU ms / 1k | Postgres CPU ms / 1k | cores app / pg / bench / other |",
    "|---|---|---|---|---|---|---|",
    ...r.perType.map((b) => row(b)),
    "",
    "### Live lag",
    "",
    `A stream started \`now\` to s3rver while ${n0(r.live.offeredPerSecond)} events/s are appended over REST (POST …/audit/batch of ${n0(r.live.offeredPerSecond / 20)} every 50 ms) for ${n0(r.live.events / Math.max(1, r.live.appendedPerSecond))} s (${n0(r.live.appendedPerSecond)} events/s achieved, ${n0(r.live.events)} events). ` +
      "Lag = s3rver's ObjectCreated of the object holding an event − the append's answer naming it.",
    "",
    `Lag p50 ${n0(r.live.p50Ms)} ms, **p99 ${n0(r.live.p99Ms)} ms**, max ${n0(r.live.maxMs)} ms (target p99 < 5 s: ${r.live.p99Ms < 5000 ? "met" : "missed"}).`,
    "",
    `Checked: every receiver held every event up to the chain head; every figure computed. Seeding took ${n0(r.seedSeconds)} s. Raw results: \`${resultsFile}\`.`,
    "",
  ].join("\n");
}
