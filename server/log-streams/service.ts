/**
 * Audit log streams of a tenant: create, read, change, pause, delete. Creating one, and changing
 * where it sends or with which credentials (its config), needs a fresh step-up: it sends the
 * tenant's audit log somewhere new. A stream starts after the chain's head (`now`), at its
 * oldest event, or at the first event recorded since a date; its cursor then moves only forward,
 * by the engine (engine.ts).
 */
import { type Tx, sqlIn } from "../db/client.ts";
import type { SqlStatements } from "../db/sql.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { isUuid } from "../db/ids.ts";
import { NotFound } from "../errors.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { assertSteppedUp } from "../auth/step-up.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import { flips, patchChanges, patchEvents } from "../events/patch-events.ts";
import { chainHead } from "../audit/index.ts";
import { checkConfig, dropMovedSecrets, mergeConfig, openConfig, publicConfig, sealConfig, type AnyConfig } from "./config.ts";
import {
  SECRET_FIELDS,
  type CreateLogStreamInput,
  type LogStream,
  type LogStreamState,
  type LogStreamType,
  type UpdateLogStreamInput,
} from "./schemas.ts";

/** A stream failing this long is `failing` (and announced once): log_stream.failing. */
export const FAILING_AFTER_MS = 24 * 60 * 60 * 1000;

export interface LogStreamRow {
  id: string;
  tenantId: string;
  name: string;
  type: string;
  config: unknown;
  secretsCiphertext: string | null;
  eventTypes: string[];
  enabled: boolean;
  cursorSequence: bigint;
  failingSince: Date | null;
  failingNotified: boolean;
  lastBatchAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function stateOf(row: Pick<LogStreamRow, "enabled" | "failingNotified">): LogStreamState {
  if (!row.enabled) return "paused";
  return row.failingNotified ? "failing" : "active";
}

/** `head`: the tenant's chain head sequence (lag is what is after the cursor). */
export function presentStream(row: LogStreamRow, head: number): LogStream {
  const cursor = Number(row.cursorSequence);
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    type: row.type as LogStreamType,
    config: publicConfig(row.type as LogStreamType, row),
    event_types: row.eventTypes.length ? row.eventTypes : null,
    enabled: row.enabled,
    state: stateOf(row),
    cursor_sequence: cursor,
    lag_events: Math.max(0, head - cursor),
    last_batch_at: row.lastBatchAt?.toISOString() ?? null,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function headOf(sql: SqlStatements, tenantId: string): Promise<number> {
  return (await chainHead(sql, tenantId)).sequence;
}

export async function listStreams({ db: { prisma: db }, tenantId }: TenantServiceContext, page: PageRequest) {
  return keysetPage<LogStreamRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.logStream.count({ where: { tenantId } }),
    find: ({ after, order, skip, take }) =>
      db.logStream.findMany({
        where: { AND: [{ tenantId }, keysetWhere("createdAt", after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
}

/** The stream in the tenant, read in `db`; 404 outside the tenant. */
export async function findStream(db: Tx, tenantId: string, streamId: string): Promise<LogStreamRow> {
  const row = isUuid(streamId) ? await db.logStream.findFirst({ where: { id: streamId, tenantId } }) : null;
  if (!row) throw NotFound("Log stream");
  return row;
}

export async function getStream({ db, tenantId }: TenantServiceContext, streamId: string): Promise<LogStreamRow> {
  return findStream(db.prisma, tenantId, streamId);
}

async function lockStream(tx: Tx, tenantId: string, streamId: string): Promise<LogStreamRow> {
  if (isUuid(streamId)) await tx.$queryRaw`SELECT id FROM log_streams WHERE id = ${streamId}::uuid FOR UPDATE`;
  return findStream(tx, tenantId, streamId);
}

const target = (id: string, name: string) => ({ type: "log_stream", id, name });

/** The sequence a new stream starts after: the head (`now`), before the oldest event, or before the first since a date. */
async function startCursor(sql: SqlStatements, tenantId: string, startFrom: string | undefined, head: number): Promise<number> {
  if (!startFrom || startFrom === "now") return head;
  const since = startFrom === "oldest" ? null : new Date(startFrom);
  const [row] = await sql.query<{ first: number | null }>(
    `SELECT min(sequence)::int AS first FROM audit_events WHERE tenant_id = $1::uuid ${since ? "AND recorded_at >= $2" : ""}`,
    since ? [tenantId, since] : [tenantId],
  );
  return row?.first == null ? head : row.first - 1;
}

export async function createStream({ db, actor, tenantId }: TenantServiceContext, input: CreateLogStreamInput) {
  const config = checkConfig(input.type, input.config);
  const sealed = sealConfig(input.type, config);
  return db.prisma.$transaction(async (tx) => {
    await assertSteppedUp(tx, actor.principal);
    const sql = sqlIn(tx);
    const head = await headOf(sql, tenantId);
    const cursor = await startCursor(sql, tenantId, input.start_from, head);
    const row = await tx.logStream.create({
      data: {
        tenantId,
        name: input.name,
        type: input.type,
        config: sealed.config as object,
        secretsCiphertext: sealed.secretsCiphertext,
        eventTypes: input.event_types ?? [],
        cursorSequence: BigInt(cursor),
      },
    });
    await emitEvent(sql, actorOf(actor.principal, actor.request), {
      type: "log_stream.created",
      tenantId,
      target: target(row.id, row.name),
      details: {
        name: row.name,
        type: row.type,
        event_types: input.event_types ?? null,
        start_from: input.start_from ?? "now",
        cursor_sequence: cursor,
      },
    });
    return presentStream(row, await headOf(sql, tenantId));
  });
}

/**
 * Applies a PATCH: `.updated` with what changed (a secret only as changed or dropped, never its
 * value), `.enabled`/`.disabled` when paused or resumed. A config change needs a fresh step-up; a
 * new destination takes the stored secret along only when the PATCH sends it (dropMovedSecrets).
 */
export async function updateStream({ db, actor, tenantId }: TenantServiceContext, input: UpdateLogStreamInput) {
  return db.prisma.$transaction(async (tx) => {
    const current = await lockStream(tx, tenantId, input.stream_id);
    const type = current.type as LogStreamType;
    let sealed: ReturnType<typeof sealConfig> | undefined;
    let configChange: { from: unknown; to: unknown } | undefined;
    if (input.config) {
      const before = openConfig(current);
      const after = checkConfig(type, mergeConfig(before, input.config)) as AnyConfig;
      const dropped = dropMovedSecrets(type, before, input.config, after);
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        await assertSteppedUp(tx, actor.principal);
        const secretChanged = (SECRET_FIELDS[type] as readonly string[]).some((field) => after[field] !== before[field]);
        const resealed = sealConfig(type, after);
        // An unchanged secret keeps its ciphertext: the change is only what the admin changed.
        sealed = secretChanged ? resealed : { config: resealed.config, secretsCiphertext: current.secretsCiphertext };
        const note = dropped.length ? { secret_dropped: true } : secretChanged ? { secret_changed: true } : {};
        configChange = { from: publicConfig(type, current), to: { ...publicConfig(type, sealed), ...note } };
      }
    }
    const eventTypes = input.event_types === undefined ? undefined : (input.event_types ?? []);
    const changes = patchChanges({
      name: { from: current.name, to: input.name },
      event_types: { from: current.eventTypes, to: eventTypes },
    });
    if (configChange) changes.config = configChange;
    const enabled = { from: current.enabled, to: input.enabled };
    const flipped = flips(enabled);
    if (!flipped && Object.keys(changes).length === 0) return presentStream(current, await headOf(sqlIn(tx), tenantId));

    const row = await tx.logStream.update({
      where: { id: current.id },
      data: {
        name: input.name,
        eventTypes,
        enabled: input.enabled,
        ...(sealed ? { config: sealed.config as object, secretsCiphertext: sealed.secretsCiphertext } : {}),
        // Resumed, or pointed elsewhere: try now, and a new run of failures starts from zero.
        ...((flipped && input.enabled) || sealed
          ? { nextAttemptAt: new Date(), attemptCount: 0, failingSince: null, failingNotified: false }
          : {}),
      },
    });
    const name = input.name ?? current.name;
    for (const event of patchEvents("log_stream", { tenantId, target: target(current.id, name), label: { name, type }, changes, enabled }))
      await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), event);
    return presentStream(row, await headOf(sqlIn(tx), tenantId));
  });
}

/** Deletes the stream: nothing more is sent (a batch in flight finishes, its cursor update finds no row). */
export async function deleteStream({ db, actor, tenantId }: TenantServiceContext, streamId: string) {
  await db.prisma.$transaction(async (tx) => {
    const current = await lockStream(tx, tenantId, streamId);
    await tx.logStream.delete({ where: { id: current.id } });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "log_stream.deleted",
      tenantId,
      target: target(current.id, current.name),
      details: { name: current.name, type: current.type, cursor_sequence: Number(current.cursorSequence) },
    });
  });
}
