/**
 * The Events API: a tenant's events read in order by cursor, as the webhooks get them (the same
 * payload builder, from the same rows). The audit log is the store: each tenant's events are
 * numbered by `sequence` under a lock on the tenant's chain head held until the transaction
 * commits (emit.ts LOCK_HEADS and the chain trigger), so within a tenant sequence order is commit
 * order and a committed sequence n means 1..n are committed: reading up to the head read first is
 * reading up to a safe horizon, and no reader can pass an event that commits later. A cursor is
 * a sequence; events are served for EVENTS_RETENTION_DAYS after they were recorded.
 */
import { env } from "../env.ts";
import { AppError, InvalidField } from "../errors.ts";
import type { TenantServiceContext } from "../service-context.ts";
import type { AuditEventRow } from "../events/types.ts";
import { waitForTenantEvents, type Waiter } from "../events/waiters.ts";
import { payloadEventOf, payloadOf } from "../events/payload.ts";
import { DEFAULT_FEED_LIMIT, type FeedPage, type ListFeedInput } from "./feed-schemas.ts";
import { AUDIT_COLUMNS, chainHead, resolveFilter } from "./query.ts";

/** Rows a filtered read looks through per query (the cursor moves past the kinds not asked for). */
const SCAN = 5_000;
/** Queries per answer when a filter skips everything it scans. */
const MAX_SCANS = 10;

export function encodeFeedCursor(sequence: number): string {
  return Buffer.from(`ev1:${sequence}`).toString("base64url");
}

function decodeFeedCursor(value: string): number {
  const match = /^ev1:(\d{1,15})$/.exec(Buffer.from(value, "base64url").toString("utf8"));
  if (!match) throw InvalidField("after", "is not a cursor this API issued");
  return Number(match[1]);
}

const retentionCutoff = () => new Date(Date.now() - env().EVENTS_RETENTION_DAYS * 86_400_000);

/** The oldest cursor still served: just before the tenant's oldest event recorded within retention. */
async function oldestCursor(ctx: TenantServiceContext, head: number): Promise<number> {
  const [row] = await ctx.db.sql.query<{ first: number | null }>(
    `SELECT min(sequence)::int AS first FROM audit_events WHERE tenant_id = $1::uuid AND recorded_at >= $2`,
    [ctx.tenantId, retentionCutoff()],
  );
  return row?.first == null ? head : row.first - 1;
}

/** 410 when the event right after `after` is past retention (the reader would miss events). */
async function refuseExpired(ctx: TenantServiceContext, after: number, head: number): Promise<void> {
  if (after >= head) return;
  const [next] = await ctx.db.sql.query<{ expired: boolean }>(
    `SELECT recorded_at < $3 AS expired FROM audit_events WHERE tenant_id = $1::uuid AND sequence = $2`,
    [ctx.tenantId, after + 1, retentionCutoff()],
  );
  if (next && !next.expired) return;
  const oldest = encodeFeedCursor(await oldestCursor(ctx, head));
  throw new AppError(
    "gone",
    `The cursor is older than the ${env().EVENTS_RETENTION_DAYS} days events are kept; read on from oldest_cursor`,
    {
      extensions: { oldest_cursor: oldest },
    },
  );
}

interface Read {
  rows: AuditEventRow[];
  next: number;
}

/** Up to `limit` events after `after` (of `kinds`, if given), and the cursor after what was looked at. */
async function readAfter(ctx: TenantServiceContext, after: number, head: number, limit: number, kinds?: string[]): Promise<Read> {
  if (kinds && !kinds.length) return { rows: [], next: head };
  let from = after;
  for (let scan = 0; scan < MAX_SCANS && from < head; scan++) {
    const upTo = kinds ? Math.min(head, from + SCAN) : head;
    const rows = await ctx.db.sql.query<AuditEventRow>(
      `SELECT ${AUDIT_COLUMNS} FROM audit_events e
        WHERE e.tenant_id = $1::uuid AND e.sequence > $2 AND e.sequence <= $3 ${kinds ? "AND e.event_type = ANY($5::text[])" : ""}
        ORDER BY e.sequence LIMIT $4`,
      kinds ? [ctx.tenantId, from, upTo, limit, kinds] : [ctx.tenantId, from, upTo, limit],
    );
    if (rows.length === limit) return { rows, next: rows[rows.length - 1]!.sequence };
    from = upTo;
    if (rows.length) return { rows, next: from };
  }
  return { rows: [], next: from };
}

function present(read: Read): FeedPage {
  return {
    results: read.rows.map((row) => {
      const { id, type, created_at, data } = JSON.parse(payloadOf(payloadEventOf(row))) as FeedPage["results"][number] & {
        tenant_id: string;
      };
      return { id, type, created_at, data };
    }),
    next_cursor: encodeFeedCursor(read.next),
  };
}

/**
 * The tenant's events after the cursor, in order. With `wait`, an answer that would be empty
 * waits for the tenant's next commit instead (registered before reading, so none slips between).
 */
export async function readFeed(ctx: TenantServiceContext, input: ListFeedInput): Promise<FeedPage> {
  const limit = input.limit ?? DEFAULT_FEED_LIMIT;
  const deadline = Date.now() + (input.wait ?? 0) * 1000;
  let waiter: Waiter | null = null;
  try {
    if (input.wait) waiter = await waitForTenantEvents(ctx.db, ctx.tenantId);
    const first = await chainHead(ctx.db.sql, ctx.tenantId);
    let after: number;
    if (input.after === undefined) after = await oldestCursor(ctx, first.sequence);
    else {
      after = decodeFeedCursor(input.after);
      if (after > first.sequence) throw InvalidField("after", "is ahead of the tenant's events");
      await refuseExpired(ctx, after, first.sequence);
    }
    for (let head = first; ; head = await chainHead(ctx.db.sql, ctx.tenantId)) {
      const kinds = input.event_types ? resolveFilter(ctx.tenantId, { event_type: input.event_types }, head).kinds : undefined;
      const read = await readAfter(ctx, after, head.sequence, limit, kinds);
      const left = deadline - Date.now();
      if (read.rows.length || !waiter || left <= 0) return present(read);
      after = read.next;
      await waiter.until(left);
    }
  } finally {
    waiter?.cancel();
  }
}
