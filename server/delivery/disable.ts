/**
 * Delivery core: a destination turned off by the service itself (it answered "gone", or every
 * attempt failed for days), in one transaction: the kind flips it and says so (its event), then
 * the core records the attempt that caused it and cancels what is still due for it.
 */
import type { Database } from "../db/client.ts";
import { runAfterCommit, type Claimed, type DeliveryKind, type Sent } from "./kind.ts";

/** The attempt that made the destination refuse for good. */
export interface Cause {
  number: number;
  startedAt: Date;
  durationMs: number;
  sent: Sent;
}

export async function disableDestination<Row extends object, Result extends Sent>(
  db: Database,
  kind: DeliveryKind<Row, Result>,
  item: Claimed & Row,
  reason: string,
  cause?: Cause,
): Promise<void> {
  const error = `${kind.destination.disabledError}: ${reason}`;
  const after = await db.sql.transaction(async (tx) => {
    // The destination before its items, as a PATCH turning it off does: the same lock order.
    const then = await kind.destination.disable(tx, item, reason);
    if (cause) {
      const { sent } = cause;
      await tx.query(kind.sql.goneAttempt, [
        item.id,
        cause.number,
        cause.startedAt,
        cause.durationMs,
        sent.status,
        sent.body,
        sent.error,
        sent.request.url,
        JSON.stringify(sent.request.headers),
        sent.responseHeaders ? JSON.stringify(sent.responseHeaders) : null,
      ]);
      await tx.query(kind.sql.goneItem, [item.id, cause.number, cause.startedAt, sent.status, error]);
    }
    await tx.query(kind.sql.cancelDue, [item.destination_id, error]);
    return then;
  });
  runAfterCommit(kind.name, db, after);
}
