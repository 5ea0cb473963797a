/**
 * Prometheus metrics (prom-client): the process's one registry and the series counted where things
 * happen (the node server's requests, the delivery engine, the job runner, the audit appender, the
 * webhook outbox, log-stream batches). Kept on globalThis so Next's bundles and the node:http server
 * record into the same series. Gauges read from elsewhere when scraped (the database pool, queues,
 * lag) are their owners' collectors (`Collector`), registered by the scrape (server/ops/scrape.ts).
 * Imports nothing of the app's: every layer may count into it.
 */
import client from "prom-client";

/**
 * The attempt series of each kind of delivery (server/delivery/kind.ts names its own):
 * `<series>_attempts_total` and `<series>_attempt_duration_seconds`, by outcome.
 */
const DELIVERY_SERIES = {
  webhook: {
    attempts: "Webhook delivery attempts, by outcome (succeeded, failed: will retry, exhausted, disabled: 410 Gone).",
    duration: "Time of one webhook delivery attempt, by outcome.",
  },
} as const;
export type DeliverySeries = keyof typeof DELIVERY_SERIES;

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function build() {
  const registry = new client.Registry();
  const registers = [registry];
  client.collectDefaultMetrics({ register: registry });
  const http = {
    requests: new client.Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by method, route template and status.",
      labelNames: ["method", "route", "status"],
      registers,
    }),
    duration: new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time from request to the end of the response, by method, route template and status.",
      labelNames: ["method", "route", "status"],
      buckets: SECONDS,
      registers,
    }),
  };
  const deliveries = Object.fromEntries(
    Object.entries(DELIVERY_SERIES).map(([series, help]) => [
      series,
      {
        attempts: new client.Counter({ name: `${series}_attempts_total`, help: help.attempts, labelNames: ["outcome"], registers }),
        duration: new client.Histogram({
          name: `${series}_attempt_duration_seconds`,
          help: help.duration,
          labelNames: ["outcome"],
          buckets: SECONDS,
          registers,
        }),
      },
    ]),
  ) as Record<DeliverySeries, { attempts: client.Counter; duration: client.Histogram }>;
  const jobs = {
    runs: new client.Counter({
      name: "job_runs_total",
      help: "Periodic job runs (server/jobs), by job and outcome (ran, failed), from the ticker or the cron route.",
      labelNames: ["job", "outcome"],
      registers,
    }),
    duration: new client.Histogram({
      name: "job_run_duration_seconds",
      help: "Time of one periodic job's run, by job.",
      labelNames: ["job"],
      buckets: SECONDS,
      registers,
    }),
  };
  const auditAppends = new client.Counter({
    name: "audit_appends_total",
    help: "Audit events appended through the API (committed).",
    registers,
  });
  const webhookFilterErrors = new client.Counter({
    name: "webhook_filter_errors_total",
    help: "Webhook content filters that failed to evaluate on an event (a missing key, a non-boolean result): the event did not match.",
    registers,
  });
  const logStreams = {
    batches: new client.Counter({
      name: "log_stream_batches_total",
      help: "Log-stream batches sent by this process, per receiver type and outcome (succeeded, failed).",
      labelNames: ["type", "outcome"],
      registers,
    }),
    events: new client.Counter({
      name: "log_stream_events_sent_total",
      help: "Audit events a receiver accepted, per log-stream type.",
      labelNames: ["type"],
      registers,
    }),
    duration: new client.Histogram({
      name: "log_stream_batch_duration_seconds",
      help: "How long sending one log-stream batch took, per type.",
      labelNames: ["type"],
      buckets: SECONDS,
      registers,
    }),
  };
  return { registry, http, deliveries, jobs, auditAppends, webhookFilterErrors, logStreams };
}

/**
 * A gauge read when scraped, written by the module that owns what it reads (a table, the pool): its
 * `collect` sets the values (`this.set`), and logs rather than throws when it cannot read them.
 */
export type Collector = Omit<client.GaugeConfiguration<string>, "registers" | "collect"> & {
  collect(this: client.Gauge<string>): Promise<void>;
};

const holder = globalThis as unknown as { __controlPlaneMetrics?: ReturnType<typeof build> };

function metrics() {
  holder.__controlPlaneMetrics ??= build();
  return holder.__controlPlaneMetrics;
}

/** `route` is a template (server/ops/routes.ts), never a raw path: ids would explode the series. */
export function observeHttpRequest(method: string, route: string, status: number | "aborted", seconds: number): void {
  const labels = { method: METHODS.has(method) ? method : "other", route, status: String(status) };
  const m = metrics().http;
  m.requests.inc(labels);
  m.duration.observe(labels, seconds);
}

export type AttemptOutcome = "succeeded" | "failed" | "exhausted" | "disabled";

/** One attempt of a kind of delivery (server/delivery/engine.ts). */
export function observeDeliveryAttempt(series: DeliverySeries, outcome: AttemptOutcome, durationMs: number): void {
  const m = metrics().deliveries[series];
  m.attempts.inc({ outcome });
  m.duration.observe({ outcome }, durationMs / 1000);
}

export function observeJobRun(job: string, outcome: "ran" | "failed", seconds: number): void {
  const m = metrics().jobs;
  m.runs.inc({ job, outcome });
  m.duration.observe({ job }, seconds);
}

export function countAuditAppends(n: number): void {
  metrics().auditAppends.inc(n);
}

export function countWebhookFilterErrors(n: number): void {
  metrics().webhookFilterErrors.inc(n);
}

/** One log-stream batch (server/log-streams/engine.ts): `events` accepted when it succeeded. */
export function observeLogStreamBatch(type: string, outcome: "succeeded" | "failed", events: number, durationMs: number): void {
  const m = metrics().logStreams;
  m.batches.inc({ type, outcome });
  if (events) m.events.inc({ type }, events);
  m.duration.observe({ type }, durationMs / 1000);
}

/**
 * Registers collectors once per process, in the order given (a gauge's collect starts in that
 * order at each scrape); one whose name is registered already is passed over.
 */
export function registerCollectors(collectors: readonly Collector[]): void {
  const { registry } = metrics();
  for (const collector of collectors) {
    if (!registry.getSingleMetric(collector.name)) new client.Gauge({ ...collector, registers: [registry] });
  }
}

/** What a scrape answers: every series of the registry, in Prometheus' text format. */
export async function exposition(): Promise<{ contentType: string; text: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, text: await registry.metrics() };
}
