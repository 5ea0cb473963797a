/**
 * Group commit for appended events. A tenant's chain admits one writer at a time, and the head
 * lock is held until COMMIT, whose fsync is most of a transaction's cost; so concurrent appends to
 * one tenant (in this process) queue here and go in together: one INSERT and one COMMIT for the
 * whole batch. While a batch commits, the next one gathers. A job is one request's events (one, or
 * a batch append's several): they stay together and in order, so they are contiguous in the chain.
 * If a shared batch fails, its jobs are retried one by one, so one bad job cannot fail the others
 * and fails whole.
 */
import type { Database } from "../db/client.ts";
import { recordAppendedEvents, type AppendedEventToEmit } from "../events/emit.ts";
import type { AuditEventRow } from "../events/types.ts";
import { countAuditAppends } from "../metrics.ts";

/** Most events one transaction takes (the rest wait for the next; a larger job goes alone). */
const MAX_BATCH = 500;

interface Job {
  items: AppendedEventToEmit[];
  resolve: (events: AuditEventRow[]) => void;
  reject: (error: unknown) => void;
}

interface Queue {
  pending: Job[];
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

/** The next jobs in arrival order, up to MAX_BATCH events (always at least one job). */
function takeBatch(queue: Queue): Job[] {
  let count = queue.pending[0]!.items.length;
  let take = 1;
  while (take < queue.pending.length && count + queue.pending[take]!.items.length <= MAX_BATCH) {
    count += queue.pending[take]!.items.length;
    take += 1;
  }
  return queue.pending.splice(0, take);
}

async function commit(db: Database, items: AppendedEventToEmit[]): Promise<AuditEventRow[]> {
  const stored = await db.sql.transaction((tx) => recordAppendedEvents(tx, items));
  countAuditAppends(stored.length);
  return stored;
}

async function drain(db: Database, tenantId: string, queue: Queue): Promise<void> {
  queue.running = true;
  try {
    while (queue.pending.length) {
      const batch = takeBatch(queue);
      try {
        const stored = await commit(
          db,
          batch.flatMap((job) => job.items),
        );
        let at = 0;
        for (const job of batch) {
          job.resolve(stored.slice(at, at + job.items.length));
          at += job.items.length;
        }
      } catch (error) {
        if (batch.length === 1) {
          batch[0]!.reject(error);
          continue;
        }
        for (const job of batch) await commit(db, job.items).then(job.resolve, job.reject);
      }
    }
  } finally {
    queue.running = false;
    queues.get(db)?.delete(tenantId);
  }
}

/**
 * Appends `items` to `tenantId`'s log as one job: all in one transaction, contiguous and in the
 * order given, or none. The transaction may be shared with concurrent appends to the tenant.
 */
export function appendManyToLog(db: Database, tenantId: string, items: AppendedEventToEmit[]): Promise<AuditEventRow[]> {
  if (!items.length) return Promise.resolve([]);
  const queue = queueOf(db, tenantId);
  const done = new Promise<AuditEventRow[]>((resolve, reject) => queue.pending.push({ items, resolve, reject }));
  if (!queue.running) void drain(db, tenantId, queue);
  return done;
}

/** Appends one event to `tenantId`'s log, sharing a transaction with concurrent appends. */
export async function appendToLog(db: Database, tenantId: string, item: AppendedEventToEmit): Promise<AuditEventRow> {
  const [stored] = await appendManyToLog(db, tenantId, [item]);
  return stored!;
}
