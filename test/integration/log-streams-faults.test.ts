/**
 * Log streams across real instances (child processes running the production start-up, so each
 * runs its own dispatcher): an instance killed mid-batch leaves the batch to be resent whole by
 * another once its lease lapses (same range, same webhook-id); an instance stopped with SIGTERM
 * lets its batch in flight finish and record before it exits 0; the receiver ends up with every
 * event, in order, none skipped.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { db, tenantWithMembers } from "../support/fixtures.ts";
import { startInstance, type Instance } from "../support/instances.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { until } from "../support/until.ts";
import { TEST_APPENDER } from "../support/events.ts";
import { database } from "../../server/db/client.ts";
import { recordAppendedEvents } from "../../server/events/emit.ts";
import { encryptSecret } from "../../server/secrets/encryption.ts";
import { deliverDueStreams } from "../../server/log-streams/engine.ts";

const EVENTS = 5000;
const INSTANCE_ENV = { INTERNAL_CRON: "off", LOG_STREAM_BATCH_WAIT_MS: "0", LOG_STREAM_POLL_MS: "100" };

let receiver: Receiver;
const instances: Instance[] = [];
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const instance of instances) await instance.stop();
  await receiver.close();
});

interface Batch {
  from: number;
  to: number;
  id: string;
  sequences: number[];
}
const batches = (tenantId: string): Batch[] =>
  receiver.received
    .map((r) => ({
      r,
      body: JSON.parse(r.body) as { tenant_id: string; from_sequence: number; to_sequence: number; events: { sequence: number }[] },
    }))
    .filter(({ body }) => body.tenant_id === tenantId)
    .map(({ r, body }) => ({
      from: body.from_sequence,
      to: body.to_sequence,
      id: String(r.headers["webhook-id"]),
      sequences: body.events.map((e) => e.sequence),
    }));

test(
  "killed mid-batch: the same range is resent; SIGTERM: the batch in flight finishes first; nothing is skipped",
  { timeout: 120_000 },
  async () => {
    const { tenant } = await tenantWithMembers();
    const { sql } = await database();
    const actor = { id: null, email: null, ip: null, userAgent: null };
    for (let i = 0; i < EVENTS; i += 500) {
      await sql.transaction((tx) =>
        recordAppendedEvents(
          tx,
          Array.from({ length: 500 }, (_, j) => ({
            actor,
            appendedBy: TEST_APPENDER,
            event: { type: "backlog.tick", tenantId: tenant.id, details: { n: i + j } },
          })),
        ),
      );
    }
    const stream = await (
      await db()
    ).logStream.create({
      data: {
        tenantId: tenant.id,
        name: "Faults",
        type: "https",
        config: { url: `${receiver.url}/siem` },
        secretsCiphertext: encryptSecret(JSON.stringify({ secret: "faults-secret-0123456789" })),
      },
    });
    const row = () => db().then((prisma) => prisma.logStream.findUniqueOrThrow({ where: { id: stream.id } }));
    receiver.respond = () => ({ status: 200, body: "ok", delayMs: 500 });

    // A takes the first batch and dies while the receiver holds it.
    const a = await startInstance(INSTANCE_ENV, "test/support/app-instance.ts");
    instances.push(a);
    await receiver.waitFor(1, { timeoutMs: 30_000, filter: (r) => r.body.includes(tenant.id) });
    a.child.kill("SIGKILL");
    await a.stop();
    const orphan = await row();
    expect(orphan.cursorSequence).toBe(0n);
    expect([orphan.pendingFrom, orphan.pendingTo]).toEqual([1n, 1000n]);
    expect(orphan.lockedUntil!.getTime()).toBeGreaterThan(Date.now());

    // Its lease lapses (60 s, made to pass here): B resends exactly that batch, then goes on.
    await (
      await db()
    ).$executeRaw`UPDATE log_streams SET locked_until = now() - interval '1 second' WHERE id = ${stream.id}::uuid`;
    const b = await startInstance(INSTANCE_ENV, "test/support/app-instance.ts");
    instances.push(b);
    await until(
      () => batches(tenant.id),
      (sent) => sent.length >= 3,
      { timeoutMs: 30_000 },
    );
    const [first, again] = batches(tenant.id);
    expect(again).toEqual(first);
    expect(first).toMatchObject({ from: 1, to: 1000, id: `${stream.id}:1-1000` });

    // SIGTERM while a batch is at the receiver: it is answered, recorded, then the process exits 0.
    receiver.respond = () => ({ status: 200, body: "ok", delayMs: 3000 });
    const inFlight = batches(tenant.id).length;
    await receiver.waitFor(inFlight + 1, { timeoutMs: 30_000, filter: (r) => r.body.includes(tenant.id) });
    const atTerm = batches(tenant.id).length;
    b.child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => b.child.once("exit", resolve));
    expect(code).toBe(0);
    // Told to stop, its run took no next batch.
    expect(batches(tenant.id)).toHaveLength(atTerm);
    const stopped = await row();
    expect(stopped.lockedUntil).toBeNull();
    // Its run may have recorded the next range as pending (sent by whoever claims next), never past it.
    if (stopped.pendingFrom !== null) expect(stopped.pendingFrom).toBe(stopped.cursorSequence + 1n);
    expect(Number(stopped.cursorSequence)).toBe(batches(tenant.id).at(-1)!.to);

    // What is left goes out from the cursor: every event, in order, none skipped.
    receiver.respond = () => ({ status: 200, body: "ok" });
    const handle = await database();
    while ((await deliverDueStreams(handle, { limit: 50 })).sent);
    const received = [...new Set(batches(tenant.id).flatMap((batch) => batch.sequences))];
    const head = Number((await (await db()).auditChain.findUniqueOrThrow({ where: { chainId: tenant.id } })).sequence);
    expect(received).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  },
);
