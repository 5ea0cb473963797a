/**
 * Prometheus metrics (`GET /api/metrics`, prom-client). One registry per process, kept on
 * globalThis so Next's bundles and the node:http server record into the same series. Counters and
 * histograms are updated where things happen (server/ops/http-server.ts, the delivery engine, the
 * audit appender); the queue and pool gauges are read when scraped (one cheap query). Off (404)
 * unless METRICS_TOKEN is set; the scrape needs `Authorization: Bearer $METRICS_TOKEN`.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import client from "prom-client";
import { env } from "../env.ts";
import { database } from "../db/client.ts";
import { log, errorFields } from "../log.ts";
import { problemResponse } from "../contract/problem.ts";
import { publicUrl, requestIdOf } from "../contract/request.ts";

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
  new client.Gauge({
    name: "db_pool_connections",
    help: "This process's Postgres pool: total and idle connections, and waiting (queries waiting for a connection).",
    labelNames: ["state"],
    registers,
    // Registered (so collected) before the deliveries gauge: read before its query takes a connection.
    async collect() {
      const stats = (await database()).poolStats?.();
      if (!stats) return;
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });
  new client.Gauge({
    name: "webhook_deliveries",
    help: "Webhook deliveries waiting: due (may be claimed now) and in_flight (claimed by some instance, lease running). Read from the database at scrape time.",
    labelNames: ["state"],
    registers,
    async collect() {
      try {
        const { sql } = await database();
        const [row] = await sql.query<{ due: number; in_flight: number }>(
          `SELECT count(*) FILTER (WHERE next_attempt_at <= now() AND (locked_until IS NULL OR locked_until <= now()))::int AS due,
                  count(*) FILTER (WHERE locked_until > now())::int AS in_flight
           FROM webhook_deliveries WHERE status IN ('pending', 'failed')`,
        );
        this.set({ state: "due" }, row?.due ?? 0);
        this.set({ state: "in_flight" }, row?.in_flight ?? 0);
      } catch (error) {
        log.warn("metrics: cannot count webhook deliveries", errorFields(error));
      }
    },
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
  new client.Gauge({
    name: "log_stream_lag_events",
    help: "Audit events not yet sent by enabled log streams, summed per type. Read from the database at scrape time.",
    labelNames: ["type"],
    registers,
    async collect() {
      try {
        const { sql } = await database();
        const rows = await sql.query<{ type: string; lag: number }>(
          `SELECT s.type, sum(greatest(c.sequence - s.cursor_sequence, 0))::float8 AS lag
             FROM log_streams s JOIN audit_chains c ON c.chain_id = s.tenant_id WHERE s.enabled GROUP BY s.type`,
        );
        this.reset();
        for (const row of rows) this.set({ type: row.type }, row.lag);
      } catch (error) {
        log.warn("metrics: cannot read log stream lag", errorFields(error));
      }
    },
  });
  return { registry, http, deliveries, jobs, auditAppends, webhookFilterErrors, logStreams };
}

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

const digest = (value: string) => createHash("sha256").update(value).digest();

/** GET /api/metrics */
export async function metricsResponse(req: Request): Promise<Response> {
  const requestId = requestIdOf(req);
  const origin = publicUrl(req).origin;
  const token = env().METRICS_TOKEN;
  if (!token) return problemResponse({ code: "not_found", detail: `No operation ${req.method} /api/metrics` }, requestId, origin);
  // Compared as digests: constant time whatever the lengths.
  if (!timingSafeEqual(digest(req.headers.get("authorization") ?? ""), digest(`Bearer ${token}`))) {
    return problemResponse(
      { code: "unauthenticated", detail: "Send Authorization: Bearer $METRICS_TOKEN", headers: { "WWW-Authenticate": "Bearer" } },
      requestId,
      origin,
    );
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store", "X-Request-Id": requestId },
  });
}
