/**
 * The syslog sink, for on-prem SIEMs (QRadar, ArcSight, rsyslog): one RFC 5424 message per event
 * over TCP with octet-counting framing (RFC 6587 §3.4.1), over TLS unless `tls: false` (RFC 5425;
 * the receiver's certificate is checked against `ca` when given, else the system's CAs, and its
 * name against `host`).
 *
 *   <110>1 2026-11-27T10:00:00.123Z sender control-plane - invoice.paid
 *     [audit@32473 sequence="12" prev_hash="…" hash="…" tenant_id="…"] {"id":…}
 *
 * PRI 110 is facility 13 (log audit), severity 6 (informational); TIMESTAMP the event's; MSGID its
 * kind (at most 32 characters); MSG the event's JSON as the API presents it, UTF-8 without the
 * BOM RFC 5424 §6.4 asks for (rsyslog and syslog-ng send none either, and JSON parsers refuse one
 * at the start of their input). A batch's digest, when there is one, is one more message after
 * the events, MSGID `digest`, its SD giving the range it proves and the batch's. 32473 is the
 * private enterprise number RFC 5612 reserves for documentation: ours until the project has one.
 *
 * The host is resolved once through the SSRF guard and the connection made to that address. The
 * batch is sent when every byte was written and flushed, and the receiver did not reset the
 * connection, within the deadline; syslog has no application-level answer (`status` is null).
 */
import net from "node:net";
import os from "node:os";
import tls from "node:tls";
import type { AuditEvent } from "../../audit/schemas.ts";
import { OutboundError, resolveChecked } from "../../outbound/guard.ts";
import type { SinkAnswer, StreamBatch, StreamSink } from "./types.ts";
import { outboundReason } from "./http-parts.ts";

const PRI = 13 * 8 + 6;
const APP_NAME = "control-plane";
export const SYSLOG_SD_ID = "audit@32473";

export const sendToSyslog: StreamSink<"syslog"> = async (config, batch, { timeoutMs }) => {
  const deadline = Date.now() + timeoutMs;
  const frames = syslogMessages(batch).map(frame);
  if (frames.length === 0) return answer(null);
  let address: string;
  try {
    address = (await resolveChecked(config.host)).address;
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return answer(outboundReason(error));
  }
  const left = deadline - Date.now();
  if (left <= 0) return answer("timeout");
  return answer(await deliver({ address, host: config.host, port: config.port, tls: config.tls !== false, ca: config.ca }, frames, left));
};

function answer(error: string | null): SinkAnswer {
  return { ok: error === null, status: null, body: null, error, retryAfter: null };
}

/** The batch as RFC 5424 messages: one per event, then the digest's. */
export function syslogMessages(batch: StreamBatch, hostname = os.hostname()): string[] {
  const host = printable(hostname, 255) || "-";
  const test: Record<string, string> = batch.test ? { test: "true" } : {};
  const messages = batch.events.map((event: AuditEvent) =>
    message({
      timestamp: event.timestamp,
      host,
      msgid: printable(event.event_type, 32) || "-",
      sd: {
        sequence: String(event.sequence),
        prev_hash: event.prev_hash,
        hash: event.hash,
        tenant_id: batch.tenant_id,
        ...test,
      },
      msg: JSON.stringify(event),
    }),
  );
  if (batch.digest) {
    messages.push(
      message({
        timestamp: batch.digest.signed_at,
        host,
        msgid: "digest",
        sd: {
          tenant_id: batch.tenant_id,
          from_sequence: String(batch.digest.from_sequence),
          to_sequence: String(batch.digest.to_sequence),
          head_hash: batch.digest.head_hash,
          batch_from_sequence: String(batch.from_sequence),
          batch_to_sequence: String(batch.to_sequence),
          ...test,
        },
        msg: JSON.stringify(batch.digest),
      }),
    );
  }
  return messages;
}

function message(parts: { timestamp: string; host: string; msgid: string; sd: Record<string, string>; msg: string }): string {
  const params = Object.entries(parts.sd)
    .map(([name, value]) => `${name}="${escapeParamValue(value)}"`)
    .join(" ");
  return `<${PRI}>1 ${parts.timestamp} ${parts.host} ${APP_NAME} - ${parts.msgid} [${SYSLOG_SD_ID} ${params}] ${parts.msg}`;
}

/** RFC 5424 §6.3.3: `"`, `\` and `]` inside a PARAM-VALUE are escaped with a backslash. */
export function escapeParamValue(value: string): string {
  return value.replace(/["\\\]]/g, (c) => `\\${c}`);
}

/** A header field: printable US-ASCII only (%d33-126), cut to its maximum length. */
function printable(value: string, max: number): string {
  return value.replace(/[^\x21-\x7e]/g, "_").slice(0, max);
}

/** RFC 6587 octet counting: the message's length in bytes, a space, the message. */
function frame(msg: string): Buffer {
  const bytes = Buffer.from(msg, "utf8");
  return Buffer.concat([Buffer.from(`${bytes.length} `, "ascii"), bytes]);
}

interface Target {
  address: string;
  host: string;
  port: number;
  tls: boolean;
  ca: string | undefined;
}

/** After our FIN, how long the receiver has to close its side before the batch counts as sent anyway. */
const CLOSE_GRACE_MS = 2000;

/** Writes the frames on one connection and closes it; null when all went out, else why not. */
function deliver(target: Target, frames: Buffer[], timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    let settled = false;
    let flushed = false;
    const settle = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(error);
    };
    const name = target.host.replace(/^\[|\]$/g, "");
    const socket: net.Socket = target.tls
      ? tls.connect({
          host: target.address,
          port: target.port,
          // SNI and the name check use the configured name; an address is checked as one.
          servername: net.isIP(name) ? undefined : name,
          checkServerIdentity: (_, cert) => tls.checkServerIdentity(name, cert),
          ca: target.ca,
          rejectUnauthorized: true,
        })
      : net.connect({ host: target.address, port: target.port });
    let timer = setTimeout(() => settle(`timeout: not all sent within ${timeoutMs / 1000} s`), timeoutMs);
    socket.once(target.tls ? "secureConnect" : "connect", () => {
      socket.write(Buffer.concat(frames));
      socket.end();
    });
    // 'finish': every byte handed to the kernel and our FIN sent. The receiver then closes its
    // side; one that resets instead (it refused what it read) fails the batch.
    socket.once("finish", () => {
      flushed = true;
      clearTimeout(timer);
      timer = setTimeout(() => settle(null), Math.min(CLOSE_GRACE_MS, Math.max(1, timeoutMs)));
    });
    socket.on("error", (error: NodeJS.ErrnoException) => settle(connectionError(error)));
    socket.once("close", (hadError) => settle(hadError || !flushed ? "the connection closed before everything was sent" : null));
  });
}

function connectionError(error: NodeJS.ErrnoException): string {
  if (error.code && /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS|HOSTNAME|ALTNAME/.test(error.code)) return `tls: ${error.message} (${error.code})`;
  return error.code ? `connection failed (${error.code})` : `connection failed: ${error.message}`;
}
