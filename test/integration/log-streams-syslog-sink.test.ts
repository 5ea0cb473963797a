/**
 * The syslog sink against Debian's rsyslogd (test/support/rsyslog.ts): RFC 5424 over TLS with a CA
 * made for the test, octet-counted, messages parsed back from rsyslog's own output file with
 * sequence and hash in STRUCTURED-DATA; a wrong CA, plain TCP, a closed port, the SSRF guard.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { auditBatch } from "../support/stream-batches.ts";
import { makeCa, startRsyslog, type Rsyslog, type SyslogMessage } from "../support/rsyslog.ts";
import { until } from "../support/until.ts";
import { freePort } from "../support/api.ts";
import { sendToSyslog, SYSLOG_SD_ID } from "../../server/log-streams/sinks/syslog.ts";
import type { StreamBatch } from "../../server/log-streams/sinks/types.ts";
import { env } from "../../server/env.ts";

const api = apiServer();
const timeout = { timeoutMs: 10_000 };
let batch: StreamBatch;
let longKind: StreamBatch;
let secure: Rsyslog;
let plain: Rsyslog;

beforeAll(async () => {
  [secure, plain] = await Promise.all([startRsyslog({ tls: true }), startRsyslog({ tls: false })]);
  batch = await auditBatch(api.url, { events: 6, digest: true });
  longKind = await auditBatch(api.url, { events: 1, eventType: "app.very_long_event_kind_name.recorded_here" });
}, 60_000);
afterAll(async () => {
  await Promise.all([secure?.close(), plain?.close()]);
});

describe("over TLS to rsyslog", () => {
  test("one RFC 5424 message per event, in order, sequence and hash in SD, the event's JSON as MSG; then the digest", async () => {
    const before = secure.messages().length;
    const answer = await sendToSyslog({ host: "localhost", port: secure.port, ca: secure.caPem! }, batch, timeout);
    expect(answer).toEqual({ ok: true, status: null, body: null, error: null, retryAfter: null });
    const received = (await secure.waitFor(before + batch.events.length + 1)).slice(before);
    expect(received).toHaveLength(batch.events.length + 1);
    batch.events.forEach((event, i) => {
      const message = received[i]!;
      expect(message).toMatchObject({
        pri: 110,
        version: 1,
        timestamp: event.timestamp,
        appName: "control-plane",
        procId: "-",
        msgId: "invoice.paid",
      });
      expect(message.sd).toEqual({
        [SYSLOG_SD_ID]: { sequence: String(event.sequence), prev_hash: event.prev_hash, hash: event.hash, tenant_id: batch.tenant_id },
      });
      expect(JSON.parse(message.msg)).toEqual(event);
    });
    const digest = received.at(-1)!;
    expect(digest).toMatchObject({ pri: 110, msgId: "digest", timestamp: batch.digest!.signed_at });
    expect(digest.sd[SYSLOG_SD_ID]).toMatchObject({
      to_sequence: String(batch.digest!.to_sequence),
      head_hash: batch.digest!.head_hash,
      batch_from_sequence: String(batch.from_sequence),
      batch_to_sequence: String(batch.to_sequence),
    });
    expect(JSON.parse(digest.msg)).toEqual(batch.digest);
  });

  test('SD values keep " \\ and ] (escaped on the wire), and MSGID is cut to 32 characters', async () => {
    const before = secure.messages().length;
    const event = { ...longKind.events[0]!, prev_hash: 'odd "value" with \\ and ] inside' };
    const odd = { ...longKind, events: [event] };
    expect((await sendToSyslog({ host: "127.0.0.1", port: secure.port, ca: secure.caPem! }, odd, timeout)).ok).toBe(true);
    const [message] = (await secure.waitFor(before + 1)).slice(before);
    expect(message!.sd[SYSLOG_SD_ID]!.prev_hash).toBe(event.prev_hash);
    expect(message!.msgId).toBe("app.very_long_event_kind_name.re");
  });

  test("an IPv6 literal host ([::1]) is checked against the certificate's address", async () => {
    const before = secure.messages().length;
    const answer = await sendToSyslog({ host: "[::1]", port: secure.port, ca: secure.caPem! }, longKind, timeout);
    expect(answer).toMatchObject({ ok: true });
    await secure.waitFor(before + 1);
  });

  test("a receiver whose certificate does not chain to the configured CA: failed, nothing delivered", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "other-ca-"));
    try {
      const other = await makeCa(dir, "other");
      const before = secure.messages().length;
      const answer = await sendToSyslog({ host: "localhost", port: secure.port, ca: other.pem }, batch, timeout);
      expect(answer).toMatchObject({ ok: false, status: null });
      expect(answer.error).toMatch(/^tls: .*(UNABLE_TO|SELF_SIGNED|CERT)/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secure.messages()).toHaveLength(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the system's CAs by default: the test CA is not among them", async () => {
    const answer = await sendToSyslog({ host: "localhost", port: secure.port }, batch, timeout);
    expect(answer).toMatchObject({ ok: false });
    expect(answer.error).toMatch(/^tls: /);
  });

  test("TLS to a plain TCP receiver fails within the deadline", async () => {
    const answer = await sendToSyslog({ host: "localhost", port: plain.port, ca: secure.caPem! }, batch, { timeoutMs: 1500 });
    expect(answer.ok).toBe(false);
  });
});

describe("without TLS, and refusals", () => {
  test("tls: false sends the same octet-counted messages over plain TCP", async () => {
    expect(await sendToSyslog({ host: "127.0.0.1", port: plain.port, tls: false }, batch, timeout)).toMatchObject({ ok: true });
    // (The TLS attempt above left a garbage line of its own in this receiver's file.)
    const ours = (messages: SyslogMessage[]) => messages.filter((m) => m.sd[SYSLOG_SD_ID]?.tenant_id === batch.tenant_id);
    const received = await until(
      () => ours(plain.messages()),
      (m) => m.length >= batch.events.length + 1,
    );
    expect(received.map((m) => m.sd[SYSLOG_SD_ID]!.sequence)).toEqual([...batch.events.map((e) => String(e.sequence)), undefined]);
    expect(received.at(-1)!.msgId).toBe("digest");
  });

  test("nobody listening: failed, connection refused", async () => {
    const port = await freePort();
    expect(await sendToSyslog({ host: "127.0.0.1", port, tls: false }, batch, timeout)).toMatchObject({
      ok: false,
      error: "connection failed (ECONNREFUSED)",
    });
  });

  test("a loopback host while private addresses are refused: the SSRF guard says no before any connection", async () => {
    const before = plain.messages().length;
    env().OUTBOUND_ALLOW_PRIVATE = false;
    try {
      const answer = await sendToSyslog({ host: "localhost", port: plain.port, tls: false }, batch, timeout);
      expect(answer).toMatchObject({ ok: false });
      expect(answer.error).toMatch(/^ssrf_refused: localhost resolves to a private or loopback address/);
    } finally {
      env().OUTBOUND_ALLOW_PRIVATE = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(plain.messages()).toHaveLength(before);
  });
});
