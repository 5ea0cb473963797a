/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (headers, raw body,
 * arrival time) and answers with `respond`, which tests replace to script failures and stalls.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { until } from "./until.ts";

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Responder = (req: Received) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

export interface Receiver {
  url: string;
  received: Received[];
  respond: Responder;
  /** Resolves when `count` requests (matching `filter`) have arrived, or rejects after `timeoutMs`. */
  waitFor(count: number, options?: { timeoutMs?: number; filter?: (r: Received) => boolean }): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const sockets = new Set<import("node:net").Socket>();
  const receiver: Receiver = {
    url: "",
    received: [],
    respond: () => ({ status: 200, body: "ok" }),
    waitFor: (count, { timeoutMs = 10_000, filter = () => true } = {}) =>
      until(
        () => receiver.received.filter(filter),
        (matching) => matching.length >= count,
        { timeoutMs, intervalMs: 20, message: (matching) => `expected ${count} deliveries, got ${matching.length}` },
      ),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const entry: Received = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      receiver.received.push(entry);
      const answer = receiver.respond(entry);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
