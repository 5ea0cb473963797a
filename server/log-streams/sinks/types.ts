/**
 * What a log stream's sink is given and answers. A sink sends one batch to one receiver, whole,
 * and says what the receiver answered; the engine (../engine.ts) owns the cursor, retries and
 * state. A sink never throws for a receiver's failure (only on a bug) and never puts a secret in
 * what it answers.
 */
import type { AuditEvent } from "../../audit/schemas.ts";
import type { AuditDigest } from "../../audit/index.ts";
import type { LogStreamConfigs, LogStreamType } from "../schemas.ts";

export interface StreamBatch {
  stream_id: string;
  tenant_id: string;
  /** The chain range the batch covers: every event with from <= sequence <= to (those `event_types` skips are left out). */
  from_sequence: number;
  to_sequence: number;
  /** In sequence order, as the audit API presents them (sequence, prev_hash, hash included). */
  events: AuditEvent[];
  /** The tenant's latest signed digest when one exists (lets the receiver prove its copy). */
  digest: AuditDigest | null;
  /** A test batch (POST …/test): one `log_stream.test` event, range 0-0; receivers should not mix it with the log. */
  test: boolean;
}

export interface SinkAnswer {
  ok: boolean;
  /** The receiver's HTTP status, or null (no answer, or not HTTP: syslog). */
  status: number | null;
  /** At most 1 KiB of the receiver's answer. */
  body: string | null;
  /** Why it failed (timeout, refused, the receiver's error), or null. */
  error: string | null;
  /** Seconds the receiver asked to wait (Retry-After), or null. */
  retryAfter: number | null;
}

export interface SinkOptions {
  /** Deadline for the whole batch. */
  timeoutMs: number;
}

/** Sends a batch with the stream's config (secrets decrypted). */
export type StreamSink<T extends LogStreamType> = (
  config: LogStreamConfigs[T],
  batch: StreamBatch,
  options: SinkOptions,
) => Promise<SinkAnswer>;
