/**
 * Group commit for appended events. A tenant's chain admits one writer at a time, and the head
 * lock is held until COMMIT, whose fsync is most of a transaction's cost; so concurrent appends to
 * one tenant (in this process) queue here and go in together: one INSERT and one COMMIT for the
 * whole batch. While a batch commits, the next one gathers. If a batch fails, its events are
 * retried one by one, so one bad event cannot fail the others.
 */
import type { Database } from "../db/client.ts";
import { emitEvents, type EventToEmit, type StoredEvent } from "../events/emit.ts";

/** Most events one transaction takes (the rest wait for the next). */
const MAX_BATCH = 500;

interface Pending {
  item: EventToEmit;
  resolve: (event: StoredEvent) => void;
  reject: (error: unknown) => void;
}

interface Queue {
  pending: Pending[];
  running: boolean;
}

const queues = new WeakMap<Database, Map<string, Queue>>();

function queueOf(db: Database, tenantId: string): Queue {
  let byTenant = queues.get(db);
  if (!byTenant) queues.set(db, (byTenant = new Map()));
  let queue = byTenant.get(tenantId);
  if (!queue) byTenant.set(tenantId, (queue = { pending: [], running: false }));
  return queue;
}

async function drain(db: Database, tenantId: string, queue: Queue): Promise<void> {
  queue.running = true;
  try {
    while (queue.pending.length) {
      const batch = queue.pending.splice(0, MAX_BATCH);
      try {
        const stored = await db.sql.transaction((tx) => emitEvents(tx, batch.map((p) => p.item)));
        batch.forEach((p, i) => p.resolve(stored[i]!));
      } catch (error) {
        if (batch.length === 1) {
          batch[0]!.reject(error);
          continue;
        }
        for (const p of batch) {
          await db.sql.transaction((tx) => emitEvents(tx, [p.item])).then(([stored]) => p.resolve(stored!), p.reject);
        }
      }
    }
  } finally {
    queue.running = false;
    queues.get(db)?.delete(tenantId);
  }
}

/** Appends one event to `tenantId`'s log, sharing a transaction with concurrent appends. */
export function appendToLog(db: Database, tenantId: string, item: EventToEmit): Promise<StoredEvent> {
  const queue = queueOf(db, tenantId);
  const done = new Promise<StoredEvent>((resolve, reject) => queue.pending.push({ item, resolve, reject }));
  if (!queue.running) void drain(db, tenantId, queue);
  return done;
}
