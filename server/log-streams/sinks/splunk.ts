/**
 * The Splunk HEC sink: a batch as JSON events to `POST {url}/services/collector/event` with
 * `Authorization: Splunk <token>`, the events concatenated in one body (HEC's batch format). Each
 * event's `event` is the audit event as the API presents it, `time` its timestamp (epoch seconds
 * with milliseconds), and indexed `fields` carry sequence, prev_hash, hash, event_type and
 * tenant_id (as strings: HEC refuses objects there).
 *
 * The digest travels as one more event after the batch's events, of sourcetype
 * `control_plane:digest`, rather than as a field of the last event: audit searches on the stream's
 * sourcetype see only audit events, the digest keeps its own shape (the JWS and what it covers),
 * and a batch whose events `event_types` skipped still carries it. Its fields give the batch range.
 *
 * Every request names the stream's channel (`X-Splunk-Request-Channel`: the stream's id, a UUID,
 * so every instance uses the same one). When the token has indexer acknowledgement on, HEC answers
 * each request with an `ackId`; the batch is sent only once `/services/collector/ack` says every one
 * is indexed, polled until the deadline; not acknowledged by then, the batch fails and is resent
 * whole (at least once).
 *
 * Requests stay within 1,000,000 bytes (HEC's long-standing `max_content_length` default, which
 * Splunk Cloud keeps); a bigger batch goes as several requests, in order. Splunk itself truncates
 * an event's raw text at its sourcetype's TRUNCATE (10,000 bytes by default): the receiving
 * sourcetype should set TRUNCATE = 0 so large events stay verifiable (docs/log-streams.md).
 */
import type { AuditEvent } from "../../audit/schemas.ts";
import type { LogStreamConfigs } from "../schemas.ts";
import type { SinkAnswer, StreamBatch, StreamSink } from "./types.ts";
import { cutIntoParts, failure, isAnswer, post, remaining, success } from "./http-parts.ts";

export const SPLUNK_MAX_REQUEST_BYTES = 1_000_000;
export const SPLUNK_DEFAULT_SOURCE = "control-plane";
export const SPLUNK_DEFAULT_SOURCETYPE = "control_plane:audit";
export const SPLUNK_DIGEST_SOURCETYPE = "control_plane:digest";
/** Ack polling: first wait, growth, longest wait between two polls. */
const ACK_POLL = { firstMs: 100, factor: 1.5, maxMs: 2000 };

type SplunkConfig = LogStreamConfigs["splunk_hec"];

export const sendToSplunk: StreamSink<"splunk_hec"> = async (config, batch, { timeoutMs }) => {
  const deadline = Date.now() + timeoutMs;
  const base = hecBase(config.url);
  const headers = {
    authorization: `Splunk ${config.token}`,
    "content-type": "application/json",
    "x-splunk-request-channel": batch.stream_id,
  };
  const entries = hecEvents(config, batch).map((event) => JSON.stringify(event));
  if (entries.length === 0) return { ok: true, status: null, body: null, error: null, retryAfter: null };
  const parts = cutIntoParts(entries, { maxCount: Infinity, maxBytes: SPLUNK_MAX_REQUEST_BYTES, separatorBytes: 1, wrapperBytes: 0 });
  const ackIds: number[] = [];
  let answer: SinkAnswer | null = null;
  for (const [index, part] of parts.entries()) {
    const which = parts.length > 1 ? ` (request ${index + 1} of ${parts.length})` : "";
    const response = await post(`${base}/services/collector/event`, { headers, body: part.join("\n"), timeoutMs: remaining(deadline) });
    if (isAnswer(response)) return { ...response, error: `${response.error}${which}` };
    const hec = parseHec(response.body);
    if (response.status !== 200 || hec?.code !== 0) return failure(`${hecRefusal(response.status, hec)}${which}`, response);
    if (typeof hec.ackId === "number") ackIds.push(hec.ackId);
    answer = success(response);
  }
  if (ackIds.length === 0) return answer!;
  const acked = await awaitAcks(`${base}/services/collector/ack`, headers, ackIds, deadline);
  return acked ?? answer!;
};

/** The HEC base URL: the configured one without a trailing slash or an endpoint path pasted into it. */
function hecBase(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/services\/collector(\/event(\/1\.0)?|\/raw|\/ack)?$/, "");
}

function hecEvents(config: SplunkConfig, batch: StreamBatch) {
  const common = { source: config.source ?? SPLUNK_DEFAULT_SOURCE, ...(config.index ? { index: config.index } : {}) };
  const test = batch.test ? { log_stream_test: "true" } : {};
  const events: object[] = batch.events.map((event: AuditEvent) => ({
    time: epochSeconds(event.timestamp),
    ...common,
    sourcetype: config.sourcetype ?? SPLUNK_DEFAULT_SOURCETYPE,
    event,
    fields: {
      sequence: String(event.sequence),
      prev_hash: event.prev_hash,
      hash: event.hash,
      event_type: event.event_type,
      tenant_id: batch.tenant_id,
      ...test,
    },
  }));
  if (batch.digest) {
    events.push({
      time: epochSeconds(batch.digest.signed_at),
      ...common,
      sourcetype: SPLUNK_DIGEST_SOURCETYPE,
      event: batch.digest,
      fields: {
        tenant_id: batch.tenant_id,
        to_sequence: String(batch.digest.to_sequence),
        head_hash: batch.digest.head_hash,
        batch_from_sequence: String(batch.from_sequence),
        batch_to_sequence: String(batch.to_sequence),
        ...test,
      },
    });
  }
  return events;
}

/** Epoch seconds with milliseconds, as HEC's `time` takes them. */
function epochSeconds(iso: string): number {
  return Math.round(Date.parse(iso)) / 1000;
}

interface HecAnswer {
  text?: string;
  code?: number;
  ackId?: number;
}

function parseHec(body: Buffer): HecAnswer | null {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as HecAnswer) : null;
  } catch {
    return null;
  }
}

/** HEC's documented status codes, with what the stream's owner should do about them. */
const HEC_CODES: Record<number, string> = {
  1: "the token is disabled",
  2: "the token is required",
  3: "invalid authorization",
  4: "the token was refused",
  5: "no data",
  6: "invalid data format",
  7: "the index is not allowed for this token",
  8: "internal server error, retry later",
  9: "the server is busy, retry later",
  10: "the data channel is missing",
  11: "invalid data channel",
  12: "event field is required",
  13: "event field cannot be blank",
  14: "acknowledgement is disabled",
  15: "error in handling indexed fields",
  18: "HEC is unhealthy (queues are full), retry later",
  19: "HEC is unhealthy (the ack service is unavailable), retry later",
};

function hecRefusal(status: number, hec: HecAnswer | null): string {
  if (!hec || typeof hec.code !== "number") return `Splunk HEC answered ${status} without a HEC status`;
  const meaning = HEC_CODES[hec.code] ?? hec.text ?? "unknown code";
  return `Splunk HEC answered ${status}, code ${hec.code} (${meaning})${hec.text ? `: ${hec.text.slice(0, 200)}` : ""}`;
}

/** Polls the ack endpoint until every id is acknowledged (null) or the deadline passes (a failure). */
async function awaitAcks(url: string, headers: Record<string, string>, ids: number[], deadline: number): Promise<SinkAnswer | null> {
  const pending = new Set(ids);
  let wait = ACK_POLL.firstMs;
  for (;;) {
    const response = await post(url, { headers, body: JSON.stringify({ acks: [...pending] }), timeoutMs: remaining(deadline) });
    if (isAnswer(response)) return { ...response, error: `waiting for the indexer acknowledgement: ${response.error}` };
    const parsed = parseHec(response.body) as (HecAnswer & { acks?: Record<string, boolean> }) | null;
    if (response.status !== 200 || !parsed?.acks)
      return failure(`waiting for the indexer acknowledgement: ${hecRefusal(response.status, parsed)}`, response);
    for (const id of [...pending]) if (parsed.acks[String(id)] === true) pending.delete(id);
    if (pending.size === 0) return null;
    if (Date.now() + wait >= deadline) {
      return failure(`${pending.size} of ${ids.length} requests not acknowledged by Splunk's indexers in time (sent again whole)`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(ACK_POLL.maxMs, wait * ACK_POLL.factor);
  }
}
