/**
 * safeFetch keeps connections alive, but a pooled socket is only reused for the same host AND the
 * address that host resolved to in this attempt: when the name resolves elsewhere (DNS rebinding),
 * the request goes to the new, checked address on a new connection. DNS is scripted here; the
 * servers are real, on 127.0.0.1 and 127.0.0.2 at the same port.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, expect, test, vi } from "vitest";

const resolved = vi.hoisted(() => ({ address: "127.0.0.1" }));
vi.mock("node:dns/promises", async (original) => ({
  ...(await original<typeof import("node:dns/promises")>()),
  lookup: async () => [{ address: resolved.address, family: 4 }],
}));

process.env.OUTBOUND_ALLOW_PRIVATE = "true";
const { closeOutboundPools, safeFetch } = await import("../../server/outbound/guard.ts");

interface Counted {
  server: http.Server;
  connections: number;
  sockets: Set<Socket>;
}

function serve(name: string): Counted {
  const counted: Counted = { server: http.createServer((_req, res) => res.end(name)), connections: 0, sockets: new Set() };
  counted.server.on("connection", (socket: Socket) => {
    counted.connections++;
    counted.sockets.add(socket);
  });
  return counted;
}

const a = serve("a");
const b = serve("b");
let port: number;
beforeAll(async () => {
  await new Promise<void>((resolve) => a.server.listen(0, "127.0.0.1", resolve));
  port = (a.server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => b.server.listen(port, "127.0.0.2", resolve));
});
afterAll(async () => {
  closeOutboundPools();
  for (const s of [a, b]) {
    for (const socket of s.sockets) socket.destroy();
    await new Promise((resolve) => s.server.close(resolve));
  }
});

const get = async (url: string) => {
  const res = await safeFetch(url, { timeoutMs: 2000, maxBytes: 1024 });
  return { body: res.body.toString(), address: res.address };
};

test("requests to one host and address share a kept-alive connection", async () => {
  resolved.address = "127.0.0.1";
  for (let i = 0; i < 5; i++) expect(await get(`http://hooks.test:${port}/x`)).toEqual({ body: "a", address: "127.0.0.1" });
  expect(a.connections).toBe(1);
});

test("when the host resolves to another address, the pooled socket is not reused: a new connection to the new address", async () => {
  resolved.address = "127.0.0.2";
  expect(await get(`http://hooks.test:${port}/x`)).toEqual({ body: "b", address: "127.0.0.2" });
  expect(b.connections).toBe(1);
  resolved.address = "127.0.0.1";
  expect(await get(`http://hooks.test:${port}/x`)).toEqual({ body: "a", address: "127.0.0.1" });
  expect(a.connections).toBe(1);
});

test("another host name at the same address gets its own connection", async () => {
  const before = a.connections;
  expect(await get(`http://other.test:${port}/x`)).toEqual({ body: "a", address: "127.0.0.1" });
  expect(a.connections).toBe(before + 1);
});

test("a kept-alive socket the server closed while idle leaves the pool: the next request connects anew, no error", async () => {
  const before = a.connections;
  for (const socket of a.sockets) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await get(`http://hooks.test:${port}/x`)).toEqual({ body: "a", address: "127.0.0.1" });
  expect(a.connections).toBe(before + 1);
});
