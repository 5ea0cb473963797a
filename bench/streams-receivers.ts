/**
 * The receivers bench/streams.ts streams to, one per log-stream type, all on 127.0.0.1 in the
 * bench's process (rsyslogd in its own): s3rver (a real S3-compatible server, objects on disk), a
 * "discard" S3 endpoint (answers every PUT 200 and drops it: the upper bound beside the real one),
 * the test suite's Datadog and Splunk HEC intakes (checked against the vendors' clients), a plain
 * HTTPS-sink receiver, and Debian's rsyslogd over TLS. Each says how many events it holds and,
 * where the live-lag run needs it, when each sequence arrived (`arrivals`).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import AWSAccount from "s3rver/lib/models/account.js";
import { startDatadogIntake, startSplunkHec } from "../test/support/log-receivers.ts";
import { startRsyslog } from "../test/support/rsyslog.ts";

export type ReceiverType = "s3" | "s3-discard" | "datadog" | "splunk_hec" | "https" | "syslog";

export interface BenchReceiver {
  type: ReceiverType;
  /** The log stream's `type` and `config` to create against this receiver. */
  stream: { type: string; config: Record<string, unknown> };
  /** Events received so far (batches count their range for S3). */
  received(): number;
  /** Sequence → when it arrived (Date.now()), first arrival; S3 only (the key names the range). */
  arrivals: Map<number, number>;
  close(): Promise<void>;
}

const BUCKET = "audit-bench";
const REGION = "us-east-1";

/** `…/{from}-{to}.ndjson.gz` → every sequence of the range, marked as arrived now. */
function markRange(arrivals: Map<number, number>, key: string): number {
  const range = /(\d+)-(\d+)\.ndjson\.gz$/.exec(key);
  if (!range) return 0;
  const at = Date.now();
  const [from, to] = [Number(range[1]), Number(range[2])];
  for (let seq = from; seq <= to; seq++) if (!arrivals.has(seq)) arrivals.set(seq, at);
  return to - from + 1;
}

function s3Stream(endpoint: string, credentials: { accessKeyId: string; secretAccessKey: string }) {
  return {
    type: "s3",
    config: {
      bucket: BUCKET,
      region: REGION,
      prefix: "audit",
      endpoint,
      path_style: true,
      access_key_id: credentials.accessKeyId,
      secret_access_key: credentials.secretAccessKey,
    },
  };
}

/** s3rver in this process, objects in a temp directory; arrivals from its ObjectCreated events. */
export async function startS3rver(): Promise<BenchReceiver> {
  const directory = mkdtempSync(path.join(tmpdir(), "bench-s3rver-"));
  const credentials = {
    accessKeyId: `AKIA${createHash("sha1").update(directory).digest("hex").slice(0, 16).toUpperCase()}`,
    secretAccessKey: `bench/${path.basename(directory)}`,
  };
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: BUCKET }],
  });
  const arrivals = new Map<number, number>();
  let events = 0;
  (server as unknown as NodeJS.EventEmitter).on("event", (event: { Records: { s3: { object: { key: string } } }[] }) => {
    for (const record of event.Records) events += markRange(arrivals, decodeURIComponent(record.s3.object.key));
  });
  const { port } = (await server.run()) as AddressInfo;
  return {
    type: "s3",
    stream: s3Stream(`http://127.0.0.1:${port}`, credentials),
    received: () => events,
    arrivals,
    async close() {
      (server as unknown as { httpServer: http.Server }).httpServer.closeAllConnections();
      await server.close();
      AWSAccount.DUMMY_ACCOUNT.revokeAccessKey(credentials.accessKeyId);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A bare node:http server: reads each request whole, answers `status`, keeps nothing but a count. */
async function bare(onRequest: (req: http.IncomingMessage, body: Buffer) => void, headers: Record<string, string> = {}) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      onRequest(req, Buffer.concat(chunks));
      res.writeHead(200, { "content-length": "0", ...headers }).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

/** Accepts every PUT (200, an ETag) and drops the body: what the engine does with a receiver that costs nothing. */
export async function startDiscardS3(): Promise<BenchReceiver> {
  const arrivals = new Map<number, number>();
  let events = 0;
  const server = await bare((req) => (events += markRange(arrivals, decodeURIComponent(req.url ?? ""))), { etag: '"bench"' });
  return {
    type: "s3-discard",
    stream: s3Stream(server.url, { accessKeyId: "AKIABENCHDISCARD0000", secretAccessKey: "discard" }),
    received: () => events,
    arrivals,
    close: server.close,
  };
}

/** The HTTPS sink's receiver: JSON batches, answered 200; counts the events of each. */
export async function startHttpsReceiver(): Promise<BenchReceiver> {
  let events = 0;
  const server = await bare((_req, body) => (events += (JSON.parse(body.toString("utf8")) as { events: unknown[] }).events.length));
  return {
    type: "https",
    stream: { type: "https", config: { url: `${server.url}/audit`, secret: "whsec_YmVuY2gtc3RyZWFtcy1zZWNyZXQtYmVuY2g=" } },
    received: () => events,
    arrivals: new Map(),
    close: server.close,
  };
}

export async function startDatadog(): Promise<BenchReceiver> {
  const apiKey = "bench-datadog-api-key";
  const intake = await startDatadogIntake({ apiKey });
  return {
    type: "datadog",
    stream: { type: "datadog", config: { site: "datadoghq.com", api_key: apiKey, endpoint: `${intake.url}/api/v2/logs` } },
    received: () => intake.logs.length,
    arrivals: new Map(),
    close: () => intake.close(),
  };
}

export async function startSplunk(): Promise<BenchReceiver> {
  const token = "bench-splunk-hec-token";
  const hec = await startSplunkHec({ token });
  return {
    type: "splunk_hec",
    stream: { type: "splunk_hec", config: { url: hec.url, token, index: "audit" } },
    received: () => hec.events.length,
    arrivals: new Map(),
    close: () => hec.close(),
  };
}

export async function startSyslog(): Promise<BenchReceiver> {
  const rsyslog = await startRsyslog({ tls: true });
  return {
    type: "syslog",
    stream: { type: "syslog", config: { host: "127.0.0.1", port: rsyslog.port, tls: true, ca: rsyslog.caPem } },
    received: () => rsyslog.messages().length,
    arrivals: new Map(),
    close: () => rsyslog.close(),
  };
}

export const RECEIVERS: Record<ReceiverType, () => Promise<BenchReceiver>> = {
  s3: startS3rver,
  "s3-discard": startDiscardS3,
  datadog: startDatadog,
  splunk_hec: startSplunk,
  https: startHttpsReceiver,
  syslog: startSyslog,
};
