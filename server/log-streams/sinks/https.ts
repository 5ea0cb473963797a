/**
 * The HTTPS sink: one batch, one JSON POST `{type, stream_id, tenant_id, from_sequence,
 * to_sequence, digest, events}` (`type` audit_log.batch, or audit_log.test for a test batch). With
 * a secret, signed with the Standard Webhooks headers exactly as our webhooks are
 * (server/outbound/signing.ts). `webhook-id` is `{stream_id}:{from}-{to}`: a resent batch carries
 * the same id, so a receiver that keeps the ids it has seen drops the repeat.
 */
import { safeFetch } from "../../outbound/guard.ts";
import { deliveryHeaders } from "../../outbound/signing.ts";
import { answerOf, failureOf, MAX_ANSWER_BYTES } from "./http-answer.ts";
import type { StreamBatch, StreamSink } from "./types.ts";

export const USER_AGENT = "ControlPlane-LogStreams/1.0";

export const batchId = (batch: StreamBatch) => `${batch.stream_id}:${batch.from_sequence}-${batch.to_sequence}`;

export function batchPayload(batch: StreamBatch): string {
  return JSON.stringify({
    type: batch.test ? "audit_log.test" : "audit_log.batch",
    stream_id: batch.stream_id,
    tenant_id: batch.tenant_id,
    from_sequence: batch.from_sequence,
    to_sequence: batch.to_sequence,
    digest: batch.digest,
    events: batch.events,
  });
}

/** A receiver's JSON error (`{"error": …}` or `{"message": …}`), else its status. */
function receiverError(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object") {
      const { error, message } = parsed as { error?: unknown; message?: unknown };
      const said = typeof error === "string" ? error : typeof message === "string" ? message : null;
      return said ? said.slice(0, 300) : null;
    }
  } catch {
    // not JSON: the status says it
  }
  return null;
}

export const sendToHttps: StreamSink<"https"> = async (config, batch, options) => {
  const body = batchPayload(batch);
  const id = batchId(batch);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    ...(config.secret
      ? deliveryHeaders({ eventId: id, body, timestamp, secret: config.secret, userAgent: USER_AGENT })
      : { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(timestamp), "idempotency-key": id }),
    "user-agent": USER_AGENT,
    "content-length": String(Buffer.byteLength(body)),
  };
  try {
    const res = await safeFetch(config.url, { method: "POST", headers, body, timeoutMs: options.timeoutMs, maxBytes: MAX_ANSWER_BYTES });
    return answerOf(res, receiverError, config.secret ? [config.secret] : []);
  } catch (error) {
    return failureOf(error);
  }
};
