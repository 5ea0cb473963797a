/**
 * A tiny HTTP proxy on 127.0.0.1 in front of the test server, for the SDK's retry tests: it
 * forwards every request and records what passed (method, path, Idempotency-Key, the server's
 * status, when it came), and a test scripts faults into it: answer 500/502/503/504 (Retry-After: 0
 * unless the fault says), drop the connection, or hang (answer nothing until the client gives up),
 * either before the request reaches the server or after the server has answered (the answer lost
 * on the way back).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { ApiServer } from "./api-server.ts";

export type Fault = {
  kind: "500" | "502" | "503" | "504" | "drop" | "hang";
  when: "before" | "after";
  match: (req: http.IncomingMessage) => boolean;
  /** The status fault's Retry-After ("0" unless given; null: none). */
  retryAfter?: string | null;
};

export interface Passed {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** The server's status; null when the request never reached it. */
  status: number | null;
  replayed: boolean;
  /** When the request came (Date.now()). */
  at: number;
}

export interface SdkProxy {
  url: string;
  passed: Passed[];
  /** Each fault applies once, to the first request it matches. */
  faults: Fault[];
  close(): Promise<void>;
}

export async function startSdkProxy(target: string): Promise<SdkProxy> {
  const proxy: SdkProxy = { url: "", passed: [], faults: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    const index = proxy.faults.findIndex((f) => f.match(req));
    const fault = index >= 0 ? proxy.faults.splice(index, 1)[0] : undefined;
    const record: Passed = {
      method: req.method!,
      path: req.url!,
      idempotencyKey: req.headers["idempotency-key"] as string | undefined,
      status: null,
      replayed: false,
      at: Date.now(),
    };
    proxy.passed.push(record);
    const fail = () => {
      if (fault!.kind === "drop") return req.socket.destroy();
      if (fault!.kind === "hang") return; // the client times out; closing the proxy ends the socket
      const retryAfter = fault!.retryAfter === undefined ? "0" : fault!.retryAfter;
      res.writeHead(Number(fault!.kind), { "content-type": "text/plain", ...(retryAfter === null ? {} : { "retry-after": retryAfter }) });
      res.end(`proxy: ${fault!.kind}`);
    };
    if (fault?.when === "before") return req.resume().on("end", fail);
    const upstream = http.request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
      record.status = answer.statusCode!;
      record.replayed = answer.headers["idempotent-replayed"] === "true";
      if (fault) return answer.resume().on("end", fail);
      if (res.destroyed) return answer.resume(); // the client gave up (its timeout): the answer goes nowhere
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** A proxy in front of `api` for the tests of a file: started before them, closed after them (read it inside tests). */
export function sdkProxy(api: ApiServer): { readonly current: SdkProxy } {
  let proxy: SdkProxy | undefined;
  beforeAll(async () => {
    proxy = await startSdkProxy(api.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });
  return {
    get current() {
      if (!proxy) throw new Error("sdkProxy(): the proxy runs only while the file's tests do");
      return proxy;
    },
  };
}
