/**
 * A planned stop (SIGTERM, every deploy) hands the work over: two app instances (child processes)
 * on one database and one receiver, under a load of API requests (each appending an event, so
 * each makes a delivery) and a backlog of deliveries; one is stopped mid-load.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { db, tenantWithMembers } from "../support/fixtures.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { until } from "../support/until.ts";
import { database } from "../../server/db/client.ts";
import { recordAppendedEvents } from "../../server/events/emit.ts";
import { TEST_APPENDER } from "../support/events.ts";
import { encryptSecret } from "../../server/secrets/encryption.ts";

interface Instance {
  child: ChildProcess;
  port: number;
  lines: string[];
  exited: Promise<{ code: number | null; at: number }>;
}

function startInstance(): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", "--import", "./scripts/server-only.mjs", "test/support/app-instance.ts"], {
    env: { ...process.env, INTERNAL_CRON: "off", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on("exit", (code) => resolve({ code, at: Date.now() })),
  );
  return new Promise((resolve, reject) => {
    let buffer = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const port = /^\{"port":(\d+)\}$/.exec(line)?.[1];
        if (port) resolve({ child, port: Number(port), lines, exited });
      }
    });
    void exited.then(({ code }) => reject(new Error(`instance exited (${code}) before listening: ${err}`)));
  });
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  port: number,
  options: { method?: string; path: string; token?: string; body?: string; agent?: http.Agent; slowBody?: Promise<void> },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: options.path,
        agent: options.agent,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(body ? { "content-type": "application/json", "content-length": body.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (!body) return void req.end();
    if (!options.slowBody) return void req.end(body);
    // Half now, the rest when told: the request is in flight on the server meanwhile.
    req.write(body.subarray(0, 10));
    void options.slowBody.then(() => req.end(body.subarray(10)));
  });
}

const EVENT = (n: number) => JSON.stringify({ event_type: "load.tick", actor: { id: "load" }, details: { n } });

const BACKLOG = 1200;

let receiver: Receiver;
const instances: Instance[] = [];
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const { child } of instances) child.kill("SIGKILL");
  await receiver.close();
});

test(
  "SIGTERM mid-load: no request is cut, unstarted claims go to the survivor at once, every delivery arrives once, exit 0",
  { timeout: 120_000 },
  async () => {
    const { tenant, admin } = await tenantWithMembers();
    const webhook = await (
      await db()
    ).webhook.create({
      data: {
        tenantId: tenant.id,
        url: `${receiver.url}/shutdown`,
        events: ["*"],
        secretCiphertext: encryptSecret("shutdown-secret-0123456"),
        secretHint: "3456",
      },
    });
    receiver.respond = () => ({ status: 200, delayMs: 300 });
    // A backlog larger than both instances send in a few seconds (50 at a time each, 300 ms apiece).
    const { sql } = await database();
    const actor = { id: null, email: null, ip: null, userAgent: null };
    for (let i = 0; i < BACKLOG; i += 300) {
      await sql.transaction((tx) =>
        recordAppendedEvents(
          tx,
          Array.from({ length: 300 }, (_, j) => ({
            actor,
            appendedBy: TEST_APPENDER,
            event: { type: "backlog.tick", tenantId: tenant.id, details: { n: i + j } },
          })),
        ),
      );
    }

    const [a, b] = await Promise.all([startInstance(), startInstance()]);
    instances.push(a!, b!);
    const audit = `/api/v1/tenants/${tenant.id}/audit`;

    // Load: clients on keep-alive connections to A; refused (A stopped listening) → they move to B.
    let stop = false;
    const outcomes = { ok: 0, refused: 0, cut: [] as string[], bad: [] as string[] };
    const load = Array.from({ length: 6 }, async (_, w) => {
      const agents = new Map([a!.port, b!.port].map((port) => [port, new http.Agent({ keepAlive: true, maxSockets: 1 })]));
      let port = a!.port;
      for (let n = 0; !stop; n++) {
        try {
          const reply = await request(port, {
            method: "POST",
            path: audit,
            token: admin.token,
            body: EVENT(w * 100_000 + n),
            agent: agents.get(port),
          });
          if (reply.status === 201 && JSON.parse(reply.body).id) outcomes.ok += 1;
          else outcomes.bad.push(`${reply.status} ${reply.body.slice(0, 200)}`);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "ECONNREFUSED" && port === a!.port) {
            outcomes.refused += 1;
            port = b!.port;
          } else outcomes.cut.push(`${code ?? ""} ${(error as Error).message}`);
        }
      }
      for (const agent of agents.values()) agent.destroy();
    });

    // A kept-alive connection to A for its readiness, and an upload to A that is still arriving when SIGTERM does.
    const probe = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await request(a!.port, { path: "/api/health/ready", agent: probe })).status).toBe(200);
    await receiver.waitFor(150, { timeoutMs: 30_000 });
    let finishUpload!: () => void;
    const slowUpload = request(a!.port, {
      method: "POST",
      path: audit,
      token: admin.token,
      body: EVENT(-1),
      slowBody: new Promise((resolve) => (finishUpload = resolve)),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));

    const termAt = Date.now();
    a!.child.kill("SIGTERM");
    await until(
      () => a!.lines,
      (lines) => lines.some((line) => line.includes('"shutting down"')),
      { intervalMs: 10 },
    );
    const ready = await request(a!.port, { path: "/api/health/ready", agent: probe });
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: "unavailable", checks: { draining: true } });
    expect(ready.headers.connection).toBe("close");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    finishUpload();
    const uploaded = await slowUpload;
    expect(uploaded.status, uploaded.body).toBe(201);

    const { code, at: exitAt } = await a!.exited;
    expect(code).toBe(0);
    expect(exitAt - termAt).toBeLessThan(10_000);
    const handedBack = a!.lines
      .map((line) => (line.startsWith("{") ? JSON.parse(line) : {}))
      .find((entry) => entry.message === "stopping: handed back claimed webhook deliveries");
    expect(handedBack?.released).toBeGreaterThan(0);

    await new Promise((resolve) => setTimeout(resolve, 500));
    stop = true;
    await Promise.all(load);
    expect(outcomes.cut).toEqual([]);
    expect(outcomes.bad).toEqual([]);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.ok).toBeGreaterThan(0);

    // Every delivery (backlog + one per accepted request) arrives once, and well within the 60 s lease
    // a dead instance's claims would wait for: the survivor took the handed-back ones at once.
    const expected = BACKLOG + outcomes.ok + 1;
    const arrived = await receiver.waitFor(expected, { timeoutMs: 20_000, filter: (r) => r.path === "/shutdown" });
    expect(Date.now() - termAt).toBeLessThan(25_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ids = receiver.received.filter((r) => r.path === "/shutdown").map((r) => JSON.parse(r.body).id as string);
    expect(ids).toHaveLength(expected);
    expect(new Set(ids).size).toBe(expected);
    expect(arrived.length).toBe(expected);
    // The sender records each outcome just after the receiver answers: wait while any is pending.
    const rows = await until(
      () =>
        sql.query<{ status: string; attempt_count: number; n: number }>(
          `SELECT status, attempt_count, count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 GROUP BY 1, 2`,
          [webhook.id],
        ),
      (found) => !found.some((row) => row.status === "pending"),
      { timeoutMs: 15_000 },
    );
    expect(rows).toEqual([{ status: "succeeded", attempt_count: 1, n: expected }]);

    // The survivor still serves.
    expect((await request(b!.port, { path: "/api/health/ready" })).status).toBe(200);
    b!.child.kill("SIGTERM");
    expect((await b!.exited).code).toBe(0);
  },
);
