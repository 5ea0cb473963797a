/**
 * The audit list's SQL, shared by the paginated list and the streamed export. Plain SQL over the
 * (tenant_id, …, timestamp, id) indexes: one index-ordered, LIMITed branch per event kind joined
 * with UNION ALL beats `event_type = ANY(…)` plus a sort at millions of rows.
 *
 * Partitions (recorded.ts): a lower bound on `timestamp` is one on `recorded_at` (a start date, an
 * ascending cursor), and a newest-first page is looked for in the last months first
 * (`recorded_at >= from`): it is the answer once its last row is newer than any event recorded
 * before `from` can be. Either way Postgres opens a few partitions, not all ~90.
 */
import type { SqlRunner, SqlStatements } from "../db/sql.ts";
import { parseIsoDate } from "./schemas.ts";
import type { AuditEvent } from "./schemas.ts";
import { sourceOf, type AuditEventRow } from "../events/types.ts";
import { countFromRollups } from "./counts.ts";
import { monthStart, recordedFloor, recordedSince, TIMESTAMP_LEAD_MS } from "./recorded.ts";

export interface AuditFilterParams {
  event_type?: string;
  start_date?: string;
  end_date?: string;
  actor_id?: string;
  actor_email?: string;
  target_id?: string;
  target_type?: string;
}

export interface AuditFilter {
  /**
   * The tenant whose log is read, or null for every tenant's and the platform's own (the platform
   * search, server/audit/search.ts: operators and support only, never from a tenant's request).
   */
  tenantId: string | null;
  /** Exact kinds to match (prefixes already expanded), or undefined for every kind. */
  kinds?: string[];
  start?: Date;
  end?: Date;
  actorId?: string;
  /** An actor email, matched in any letter case (through the (tenant_id, lower(actor_email), timestamp, id) index). */
  actorEmail?: string;
  /** The event's target: its id (the (target_id, timestamp, id) index) and type ((tenant_id, target_type, timestamp, id)). */
  targetId?: string;
  targetType?: string;
  /** Export snapshot: only events at or below this chain sequence. */
  maxSequence?: number;
  /** How many events the tenant holds (its chain head), to skip the month windows on small tenants. */
  size?: number;
}

/** Newest-first pages look back this many whole months before the newest one, in turn, then everywhere. */
const WINDOWS_MONTHS_BACK = [0, 2, 12];

/** Below this many events in the tenant, a page is looked for everywhere at once (windows would only add queries). */
const WINDOWS_FROM_SIZE = 20_000;

export const AUDIT_COLUMNS = `e.id, e.tenant_id, e.event_type, e.actor_id, e.actor_email, e."timestamp", e.ip_address,
  e.user_agent, e.target_type, e.target_id, e.target_name, e.details, e.sequence::int AS sequence, e.prev_hash, e.hash,
  e.chain_version, e.source_type, e.source_token_id, e.source_user_id`;

export function presentEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    event_type: row.event_type,
    actor: { id: row.actor_id, email: row.actor_email },
    timestamp: new Date(row.timestamp).toISOString(),
    metadata: { ip_address: row.ip_address, user_agent: row.user_agent },
    target:
      row.target_type !== null && row.target_id !== null
        ? { type: row.target_type, id: row.target_id, name: row.target_name ?? null }
        : null,
    details: row.details ?? {},
    sequence: Number(row.sequence),
    prev_hash: row.prev_hash,
    hash: row.hash,
    chain_version: Number(row.chain_version),
    source: sourceOf(row),
  };
}

interface ChainHead {
  sequence: number;
  kinds: Record<string, number>;
}

/** The tenant's chain head: its sequence (= number of events) and the count per kind. */
export async function chainHead(sql: SqlStatements, tenantId: string): Promise<ChainHead> {
  const [row] = await sql.query<{ sequence: string | number; event_types: Record<string, number | string> }>(
    `SELECT sequence, event_types FROM audit_chains WHERE chain_id = $1::uuid`,
    [tenantId],
    { prepare: true },
  );
  const kinds: Record<string, number> = {};
  for (const [kind, n] of Object.entries(row?.event_types ?? {})) kinds[kind] = Number(n);
  return { sequence: Number(row?.sequence ?? 0), kinds };
}

/** Turns validated query parameters into a filter, expanding `user.*` to the tenant's own kinds (every tenant's for the search). */
export function resolveFilter(tenantId: string | null, params: AuditFilterParams, head: ChainHead): AuditFilter {
  const filter: AuditFilter = { tenantId, size: Object.values(head.kinds).reduce((sum, n) => sum + n, 0) };
  if (params.event_type) {
    const known = Object.keys(head.kinds);
    const kinds = new Set<string>();
    for (const item of params.event_type.split(",").map((s) => s.trim())) {
      if (item.endsWith(".*")) {
        const prefix = item.slice(0, -1);
        for (const kind of known) if (kind.startsWith(prefix)) kinds.add(kind);
      } else if (item in head.kinds) {
        kinds.add(item);
      }
    }
    filter.kinds = [...kinds].sort();
  }
  if (params.start_date) filter.start = parseIsoDate(params.start_date)!;
  if (params.end_date) filter.end = parseIsoDate(params.end_date)!;
  if (params.actor_id) filter.actorId = params.actor_id;
  if (params.actor_email) filter.actorEmail = params.actor_email;
  if (params.target_id) filter.targetId = params.target_id;
  if (params.target_type) filter.targetType = params.target_type;
  return filter;
}

/**
 * Total events matching: from the chain head when only kinds (or nothing) filter, else from the
 * count rollups (counts.ts); counted row by row for an export snapshot, for an actor email,
 * which has no rollups (its index carries the email, so the count reads that index alone), for a
 * target, and across tenants (the search: rollups are per chain), each through its filter's index.
 */
export async function countEvents(sql: SqlRunner, filter: AuditFilter, head: ChainHead): Promise<number> {
  if (filter.kinds?.length === 0) return 0;
  const byRow = filter.tenantId === null || filter.actorEmail || filter.targetId || filter.targetType || filter.maxSequence !== undefined;
  const onlyKinds = !byRow && !filter.start && !filter.end && !filter.actorId;
  // The head's per-kind counts, not its sequence: retention purges the oldest events.
  if (onlyKinds) return (filter.kinds ?? Object.keys(head.kinds)).reduce((sum, kind) => sum + (head.kinds[kind] ?? 0), 0);
  // The search by kinds alone: every chain head's per-kind counts (one row per tenant), not millions of index entries.
  const everyChainByKind = filter.tenantId === null && filter.kinds && !filter.start && !filter.end && !filter.actorId;
  if (everyChainByKind && !filter.actorEmail && !filter.targetId && !filter.targetType && filter.maxSequence === undefined) {
    const [row] = await sql.query<{ count: string | number }>(
      `SELECT coalesce(sum((c.event_types ->> k)::bigint), 0)::bigint AS count FROM audit_chains c CROSS JOIN unnest($1::text[]) k`,
      [filter.kinds],
    );
    return Number(row!.count);
  }
  if (!byRow) return countFromRollups(sql, { ...filter, tenantId: filter.tenantId! });
  const params: unknown[] = [];
  const where = whereClause(filter, params);
  const kinds = filter.kinds ? ` AND e.event_type = ANY($${params.push(filter.kinds)}::text[])` : "";
  // An email's count recurs page after page: prepared, as the rollup counts are (planning it over
  // every monthly partition costs ten times its index-only scan).
  const prepare = filter.maxSequence === undefined && filter.tenantId !== null ? { prepare: true } : undefined;
  const [row] = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM audit_events e WHERE ${where}${kinds}`,
    params,
    prepare,
  );
  return row!.count;
}

/** The (timestamp, id) bound of a keyset walk; `inclusive` includes the row at the bound itself. */
export interface Bound {
  at: Date;
  id: string;
  inclusive?: boolean;
}

const later = (a: Date | undefined, b: Date | undefined) => (a && b ? (a > b ? a : b) : (a ?? b));

/**
 * Everything but the kind: tenant (none for the search), dates, actor (id, email), target,
 * snapshot, and `recordedFrom` (partitions). Appends to `params`.
 */
function whereClause(filter: AuditFilter, params: unknown[], recordedFrom?: Date): string {
  const where = filter.tenantId === null ? [] : [`e.tenant_id = $${params.push(filter.tenantId)}::uuid`];
  const from = later(filter.start && recordedFloor(filter.start), recordedFrom);
  if (from) where.push(recordedSince(from));
  if (filter.start) where.push(`e."timestamp" >= $${params.push(filter.start)}::timestamptz`);
  if (filter.end) where.push(`e."timestamp" < $${params.push(filter.end)}::timestamptz`);
  if (filter.actorId) where.push(`e.actor_id = $${params.push(filter.actorId)}`);
  if (filter.actorEmail) where.push(`lower(e.actor_email) = lower($${params.push(filter.actorEmail)})`);
  if (filter.targetId) where.push(`e.target_id = $${params.push(filter.targetId)}`);
  if (filter.targetType) where.push(`e.target_type = $${params.push(filter.targetType)}`);
  if (filter.maxSequence !== undefined) where.push(`e.sequence <= $${params.push(filter.maxSequence)}::bigint`);
  return where.join(" AND ") || "TRUE";
}

/**
 * Every matching event, newest first, as one query (the export's COPY): with several kinds,
 * `= ANY` and one ordered scan instead of LIMITed branches.
 */
export function allEventsQuery(filter: AuditFilter, columns: string): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const where = whereClause(filter, params);
  const kinds = filter.kinds ? ` AND e.event_type = ANY($${params.push(filter.kinds)}::text[])` : "";
  return { text: `SELECT ${columns} FROM audit_events e WHERE ${where}${kinds} ORDER BY e."timestamp" DESC, e.id DESC`, params };
}

/**
 * One window of matching events in (timestamp, id) order `order`, beyond `after` (older for
 * "desc", newer for "asc"), skipping `skip` and taking `take`. Newest first, on a large tenant,
 * the last months' partitions are tried first (see the top of this file).
 */
export async function findEvents(
  sql: SqlRunner,
  filter: AuditFilter,
  args: { after?: Bound; order: "asc" | "desc"; skip: number; take: number; columns?: string },
): Promise<AuditEventRow[]> {
  if (filter.kinds?.length === 0) return [];
  const page = (recordedFrom?: Date) => findInPartitions(sql, filter, args, recordedFrom);
  // Oldest first, every matching event is newer than the cursor: a bound for all of them.
  if (args.order === "asc") return page(args.after && recordedFloor(args.after.at));
  if ((filter.size ?? Infinity) < WINDOWS_FROM_SIZE) return page();
  const newest = [args.after?.at, filter.end, new Date()].filter((at) => at !== undefined).reduce((a, b) => (a < b ? a : b));
  const floor = filter.start && recordedFloor(filter.start);
  for (const back of WINDOWS_MONTHS_BACK) {
    const from = monthStart(recordedFloor(newest), back);
    if (floor && from <= floor) break;
    const rows = await page(from);
    const last = rows[args.take - 1];
    // Anything recorded before `from` has a timestamp before from + lead: after `last`.
    if (last && new Date(last.timestamp).getTime() >= from.getTime() + TIMESTAMP_LEAD_MS) return rows;
  }
  return page();
}

/** findEvents' statement, over the partitions recorded from `recordedFrom` on (all when undefined). */
async function findInPartitions(
  sql: SqlRunner,
  filter: AuditFilter,
  args: { after?: Bound; order: "asc" | "desc"; skip: number; take: number; columns?: string },
  recordedFrom: Date | undefined,
): Promise<AuditEventRow[]> {
  const { order, skip, take, columns = AUDIT_COLUMNS } = args;
  const params: unknown[] = [];
  const base = whereClause(filter, params, recordedFrom);
  let bound = "";
  if (args.after) {
    const op = (order === "desc" ? "<" : ">") + (args.after.inclusive ? "=" : "");
    bound = ` AND (e."timestamp", e.id) ${op} ($${params.push(args.after.at)}::timestamptz, $${params.push(args.after.id)}::uuid)`;
  }
  const innerSort = `ORDER BY e."timestamp" ${order}, e.id ${order}`;
  // LIMIT and OFFSET are written as numbers: a generic plan costs a placeholder LIMIT at a tenth
  // of the rows (over JIT's threshold at millions), and never replaces per-call planning.
  const [limit, offset] = [integer(take), integer(skip)];
  // Keyset pages (no offset) are the hot path: prepared, planned once per connection, and kept
  // to that plan (see GENERIC_PLANS in db/sql.ts). Not with an actor (id or email): which index serves it best
  // (the actor's, the kind's or time's) depends on the actor's and kind's sizes, which only a plan
  // for the values sees; a generic plan, forced or chosen by Postgres, took the wrong one (1.1-2.3
  // ms against 0.1-0.25, docs/benchmarks/audit-history.md). Planned per call, over the few partitions left, instead.
  // So with a target or across tenants (the search), for the same reason.
  const perCall = skip > 0 || filter.actorId || filter.actorEmail || filter.targetId || filter.targetType || filter.tenantId === null;
  const prepare = { prepare: perCall ? false : ("generic" as const) };
  if (!filter.kinds || filter.kinds.length === 1) {
    const kind = filter.kinds ? ` AND e.event_type = $${params.push(filter.kinds[0])}` : "";
    return sql.query<AuditEventRow>(
      `SELECT ${columns} FROM audit_events e WHERE ${base}${kind}${bound} ${innerSort} LIMIT ${limit} OFFSET ${offset}`,
      params,
      prepare,
    );
  }
  const branches = filter.kinds.map(
    (kind) =>
      `(SELECT ${columns} FROM audit_events e WHERE ${base} AND e.event_type = $${params.push(kind)}${bound} ${innerSort} LIMIT ${integer(skip + take)})`,
  );
  return sql.query<AuditEventRow>(
    `SELECT * FROM (${branches.join(" UNION ALL ")}) u ORDER BY "timestamp" ${order}, id ${order} LIMIT ${limit} OFFSET ${offset}`,
    params,
    prepare,
  );
}

/** A count written into SQL text: only ever a whole, non-negative number. */
function integer(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return String(n);
}
