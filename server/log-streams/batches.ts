/** A stream's batches as the API lists them: each attempt, newest first (the newest KEPT_BATCHES are kept). */
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import type { TenantServiceContext } from "../service-context.ts";
import type { LogStreamBatch } from "./schemas.ts";
import { findStream } from "./service.ts";

export const KEPT_BATCHES = 200;

export interface BatchRow {
  id: string;
  fromSequence: bigint;
  toSequence: bigint;
  events: number;
  status: string;
  attempt: number;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  test: boolean;
  startedAt: Date;
}

export function presentBatch(row: BatchRow): LogStreamBatch {
  return {
    id: row.id,
    from_sequence: Number(row.fromSequence),
    to_sequence: Number(row.toSequence),
    events: row.events,
    status: row.status as LogStreamBatch["status"],
    attempt: row.attempt,
    duration_ms: row.durationMs,
    response_status: row.responseStatus,
    response_body: row.responseBody,
    error: row.error,
    test: row.test,
    started_at: row.startedAt.toISOString(),
  };
}

export async function listBatches(ctx: TenantServiceContext, streamId: string, page: PageRequest) {
  const stream = await findStream(ctx.db.prisma, ctx.tenantId, streamId);
  const db = ctx.db.prisma;
  // Newest first unless the caller asked otherwise: the console shows the last batches.
  return keysetPage<BatchRow>(page, {
    key: (row) => ({ at: row.startedAt, id: row.id }),
    count: () => db.logStreamBatch.count({ where: { streamId: stream.id } }),
    find: ({ after, order, skip, take }) =>
      db.logStreamBatch.findMany({
        where: { AND: [{ streamId: stream.id }, keysetWhere("startedAt", after, order)] },
        orderBy: [{ startedAt: order }, { id: order }],
        skip,
        take,
      }),
  });
}
