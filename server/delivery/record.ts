/**
 * Delivery core: records attempts for the engine (engine.ts): the attempt rows (the request as the
 * sink reported it, the response headers kept), the items' next states and each destination's
 * failure streak, a group of attempts per statement (statements.ts, `record`).
 */
import type { Database } from "../db/client.ts";
import { runAfterCommit, type DeliveryKind, type Sent } from "./kind.ts";

export interface Attempted {
  id: string;
  number: number;
  startedAt: Date;
  durationMs: number;
  sent: Sent;
  error: string | null;
  next: Date | null;
  outcome: "succeeded" | "failed" | "exhausted";
  destinationId: string;
}

/**
 * Group commit: the first attempt to finish is written at once; those finishing while a write is
 * in flight are written together by the next one. Each caller learns when its own row is written.
 * A group with items ending exhausted is written in a transaction with the kind's `exhausted`
 * (its notice), if it has one; the others stay one statement.
 */
export function recorder(db: Database, kind: Pick<DeliveryKind, "name" | "sql" | "exhausted">) {
  const statement = kind.sql.record;
  let waiting: { entry: Attempted; done: (error?: unknown) => void }[] = [];
  let writing = false;
  const write = async (entries: Attempted[]) => {
    const values = [
      entries.map((e) => e.id),
      entries.map((e) => e.number),
      entries.map((e) => e.startedAt),
      entries.map((e) => e.durationMs),
      entries.map((e) => e.sent.status),
      entries.map((e) => e.sent.body),
      entries.map((e) => e.error),
      entries.map((e) => e.next),
      entries.map((e) => e.outcome),
      entries.map((e) => e.destinationId),
      entries.map((e) => e.sent.request.url),
      entries.map((e) => JSON.stringify(e.sent.request.headers)),
      entries.map((e) => (e.sent.responseHeaders ? JSON.stringify(e.sent.responseHeaders) : null)),
    ];
    const exhausted = kind.exhausted && entries.filter((e) => e.outcome === "exhausted").map((e) => e.id);
    const run = async () => {
      if (!exhausted?.length) return void (await db.sql.query(statement, values));
      return db.sql.transaction(async (tx) => {
        await tx.query(statement, values);
        return kind.exhausted!(tx, exhausted);
      });
    };
    let after: Awaited<ReturnType<typeof run>>;
    try {
      after = await run();
    } catch (error) {
      // Two instances changing several destinations' streaks in opposite orders: run it again.
      if ((error as { code?: string }).code !== "40P01") throw error;
      after = await run();
    }
    runAfterCommit(kind.name, db, after);
  };
  const drain = async () => {
    writing = true;
    while (waiting.length) {
      const group = waiting;
      waiting = [];
      try {
        await write(group.map((g) => g.entry));
        for (const g of group) g.done();
      } catch (error) {
        for (const g of group) g.done(error);
      }
    }
    writing = false;
  };
  return (entry: Attempted) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ entry, done: (error) => (error ? reject(error) : resolve()) });
      if (!writing) void drain();
    });
}
