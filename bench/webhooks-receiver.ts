/**
 * The webhooks bench's receiver: node:http on 127.0.0.1, answers 200 at once, records per run the
 * receipt time of each (event, webhook) and how many times it arrived, and verifies the
 * X-Webhook-Signature of every `sampleEvery`-th delivery against the webhook's secret.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RunRecord {
  /** `${webhook}|${eventId}` → times received. */
  counts: Map<string, number>;
  /** Receipt time minus the event's created_at (the audit row's timestamp), first arrivals only, ms. */
  latencies: number[];
  firstAt: number;
  lastAt: number;
}

export interface BenchReceiver {
  url: string;
  runs: Map<string, RunRecord>;
  other: number;
  signaturesChecked: number;
  signaturesBad: number;
  received(run: string): number;
  close(): Promise<void>;
}

export async function startBenchReceiver(secrets: string[], sampleEvery = 50): Promise<BenchReceiver> {
  let seen = 0;
  const receiver: BenchReceiver = {
    url: "",
    runs: new Map(),
    other: 0,
    signaturesChecked: 0,
    signaturesBad: 0,
    received: (run) => receiver.runs.get(run)?.counts.size ?? 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const at = Date.now();
      res.writeHead(200, { "content-type": "text/plain", "content-length": "2" }).end("ok");
      const body = Buffer.concat(chunks).toString("utf8");
      const hook = Number(/^\/hook\/(\d+)$/.exec(req.url ?? "")?.[1] ?? "-1");
      if (++seen % sampleEvery === 0 && secrets[hook]) {
        const expected = Buffer.from(createHmac("sha256", secrets[hook]!).update(body).digest("hex"));
        const given = Buffer.from(String(req.headers["x-webhook-signature"] ?? ""));
        receiver.signaturesChecked++;
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) receiver.signaturesBad++;
      }
      const event = JSON.parse(body) as { id: string; created_at: string; data: { details: { run?: string } } };
      const run = event.data.details.run;
      if (!run) {
        receiver.other++;
        return;
      }
      let record = receiver.runs.get(run);
      if (!record) receiver.runs.set(run, (record = { counts: new Map(), latencies: [], firstAt: at, lastAt: at }));
      const key = `${hook}|${event.id}`;
      const count = record.counts.get(key) ?? 0;
      record.counts.set(key, count + 1);
      if (count === 0) record.latencies.push(at - Date.parse(event.created_at));
      record.lastAt = at;
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
