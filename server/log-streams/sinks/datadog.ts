/**
 * The Datadog sink: a batch as log entries to the Logs intake v2 (`POST /api/v2/logs`, header
 * `DD-API-KEY`, a gzip'd JSON array). Each event is one entry whose `message` is the event's JSON
 * and whose attributes carry `sequence`, `prev_hash`, `hash`, `event_type` and `tenant_id`, so a
 * search or a pipeline can check the chain; the batch's range (`audit_batch`) and the tenant's
 * latest signed digest (`audit_digest`) ride on its last entry.
 *
 * The intake's documented limits hold per request: 5 MB uncompressed, 1,000 entries, 1 MB per
 * entry. A batch over the first two is sent as several requests, in order, all of which must be
 * accepted (a failed one makes the engine resend the whole batch: duplicates, never gaps). An
 * entry over 1 MB would be truncated by Datadog (the copy could no longer be verified), so the
 * batch fails instead, saying which event; audit details are capped at 32 KiB, far below.
 *
 * No entry sets a date attribute: Datadog uses the intake time, since it drops logs dated more
 * than 18 hours back, which a backfill's events are. The event's own `timestamp` is in `message`.
 */
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { AuditEvent } from "../../audit/schemas.ts";
import type { StreamBatch, StreamSink } from "./types.ts";
import { cutIntoParts, failure, isAnswer, post, remaining, success } from "./http-parts.ts";

const compress = promisify(gzip);

/** Datadog's per-request limits, in bytes as JSON before compression (documented as 5 MB and 1 MB: read as 10^6). */
export const DATADOG_MAX_PAYLOAD_BYTES = 5_000_000;
export const DATADOG_MAX_ENTRY_BYTES = 1_000_000;
export const DATADOG_MAX_ENTRIES = 1000;
export const DATADOG_SOURCE = "control-plane";

export const sendToDatadog: StreamSink<"datadog"> = async (config, batch, { timeoutMs }) => {
  const deadline = Date.now() + timeoutMs;
  if (batch.events.length === 0) return { ok: true, status: null, body: null, error: null, retryAfter: null };
  const url = config.endpoint ?? `https://http-intake.logs.${config.site}/api/v2/logs`;
  const ddtags = [...(config.tags ?? []), `tenant_id:${batch.tenant_id}`].join(",");
  const entries = batch.events.map((event, i) =>
    JSON.stringify(logEntry(event, { service: config.service ?? DATADOG_SOURCE, ddtags, batch, last: i === batch.events.length - 1 })),
  );
  const oversized = entries.findIndex((entry) => Buffer.byteLength(entry, "utf8") > DATADOG_MAX_ENTRY_BYTES);
  if (oversized >= 0) {
    return failure(
      `event ${batch.events[oversized]!.sequence} is over Datadog's 1 MB per log entry; Datadog would truncate it, so it was not sent`,
    );
  }
  const parts = cutIntoParts(entries, {
    maxCount: DATADOG_MAX_ENTRIES,
    maxBytes: DATADOG_MAX_PAYLOAD_BYTES,
    separatorBytes: 1,
    wrapperBytes: 2,
  });
  let answer = null;
  for (const [index, part] of parts.entries()) {
    const response = await post(url, {
      headers: { "content-type": "application/json", "content-encoding": "gzip", "dd-api-key": config.api_key },
      body: await compress(`[${part.join(",")}]`),
      timeoutMs: remaining(deadline),
    });
    const which = parts.length > 1 ? ` (request ${index + 1} of ${parts.length})` : "";
    if (isAnswer(response)) return { ...response, error: `${response.error}${which}` };
    if (response.status < 200 || response.status >= 300)
      return failure(`${datadogRefusal(response.status, response.body)}${which}`, response);
    answer = success(response);
  }
  return answer!;
};

function logEntry(event: AuditEvent, options: { service: string; ddtags: string; batch: StreamBatch; last: boolean }) {
  const { batch } = options;
  return {
    ddsource: DATADOG_SOURCE,
    service: options.service,
    ddtags: options.ddtags,
    message: JSON.stringify(event),
    event_type: event.event_type,
    sequence: event.sequence,
    prev_hash: event.prev_hash,
    hash: event.hash,
    tenant_id: batch.tenant_id,
    ...(batch.test ? { log_stream_test: true } : {}),
    ...(options.last ? { audit_batch: { from_sequence: batch.from_sequence, to_sequence: batch.to_sequence } } : {}),
    ...(options.last && batch.digest ? { audit_digest: batch.digest } : {}),
  };
}

/** Why Datadog said no, from its status and its `{"errors":[{title, detail}]}` answer. */
function datadogRefusal(status: number, body: Buffer): string {
  const meaning =
    {
      400: "bad request",
      401: "the API key is missing",
      403: "the API key was refused",
      408: "request timeout, retry later",
      413: "payload too large",
      429: "too many requests, retry later",
    }[status] ?? (status >= 500 ? "server error, retry later" : "unexpected answer");
  let detail = "";
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { errors?: ({ title?: string; detail?: string } | string)[] };
    const first = parsed.errors?.[0];
    detail = typeof first === "string" ? first : [first?.title, first?.detail].filter(Boolean).join(": ");
  } catch {
    detail = "";
  }
  return `Datadog answered ${status} (${meaning})${detail ? `: ${detail.slice(0, 300)}` : ""}`;
}
