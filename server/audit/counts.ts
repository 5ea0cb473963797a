/**
 * The exact number of a tenant's events matching a filter, at a cost that does not grow with the
 * tenant: whole hours, days and months come from the audit_counts rollups (kept by the append
 * trigger in the appending transaction, see migrations 20261124000000_audit_counts and
 * 20261127030000_audit_counts_actor_months), and only the partial buckets at the edges of a date
 * range are counted row by row: under an hour of the tenant's events, or, with an actor filter,
 * under a month of that actor's events (through the (tenant_id, actor_id, timestamp, id) index).
 * One statement, so the sum and the edge counts see one snapshot. Without a kind filter the sums
 * read each bucket's row of every kind ('*', migration 20261128010000_audit_counts_all_kinds), one
 * row per bucket instead of one per kind.
 */
import type { SqlRunner } from "../db/sql.ts";
import { recordedFloor, recordedSince } from "./recorded.ts";

type Grain = "hour" | "day" | "month";

/** Grains kept per actor level, finest first: every actor ('') has hours and days, one actor only months. */
const ALL_ACTORS: Grain[] = ["hour", "day", "month"];
const ONE_ACTOR: Grain[] = ["month"];

export interface CountFilter {
  tenantId: string;
  kinds?: string[];
  start?: Date;
  end?: Date;
  actorId?: string;
}

/** [from, to) in UTC; null is open. */
type Range = [Date | null, Date | null];

function floorTo(grain: Grain, at: Date): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  if (grain === "month") return new Date(Date.UTC(y, m, 1));
  if (grain === "day") return new Date(Date.UTC(y, m, at.getUTCDate()));
  return new Date(Date.UTC(y, m, at.getUTCDate(), at.getUTCHours()));
}

function ceilTo(grain: Grain, at: Date): Date {
  const floor = floorTo(grain, at);
  if (floor.getTime() === at.getTime()) return floor;
  if (grain === "month") return new Date(Date.UTC(floor.getUTCFullYear(), floor.getUTCMonth() + 1, 1));
  return new Date(floor.getTime() + (grain === "day" ? 86_400_000 : 3_600_000));
}

const before = (a: Date | null, b: Date | null) => a === null || b === null || a < b;

export interface CountPlan {
  /** Ranges counted row by row (the partial buckets at the edges). */
  exact: Range[];
  /** Ranges of whole buckets summed from the rollups, per grain. */
  sums: { grain: Grain; range: Range }[];
}

/** Splits [start, end) into whole buckets, coarsest possible, and the partial edges. */
export function planCount(range: Range, grains: Grain[]): CountPlan {
  const [start, end] = range;
  const plan: CountPlan = { exact: [], sums: [] };
  const lo = start && ceilTo(grains[0]!, start);
  const hi = end && floorTo(grains[0]!, end);
  if (!before(lo, hi)) {
    plan.exact.push(range);
    return plan;
  }
  if (start && start < lo!) plan.exact.push([start, lo]);
  if (end && hi! < end) plan.exact.push([hi, end]);
  let inner: Range = [lo, hi];
  for (let i = 0; i < grains.length; i++) {
    const grain = grains[i]!;
    const coarser = grains[i + 1];
    const [a, b] = inner;
    const a2 = coarser && a && ceilTo(coarser, a);
    const b2 = coarser && b && floorTo(coarser, b);
    if (!coarser || !before(a2 ?? null, b2 ?? null)) {
      plan.sums.push({ grain, range: inner });
      break;
    }
    if (a && a < a2!) plan.sums.push({ grain, range: [a, a2!] });
    if (b && b2! < b) plan.sums.push({ grain, range: [b2!, b] });
    inner = [a2 ?? null, b2 ?? null];
  }
  return plan;
}

/** The matching events' count, in one statement (rollup sums + exact edges). */
export async function countFromRollups(sql: SqlRunner, filter: CountFilter): Promise<number> {
  if (filter.kinds?.length === 0) return 0;
  const params: unknown[] = [filter.tenantId];
  const plan = planCount([filter.start ?? null, filter.end ?? null], filter.actorId ? ONE_ACTOR : ALL_ACTORS);
  const kinds = filter.kinds ? `$${params.push(filter.kinds)}::text[]` : null;
  const actor = filter.actorId ? `$${params.push(filter.actorId)}` : null;
  const bound = (column: string, [from, to]: Range) =>
    (from ? ` AND ${column} >= $${params.push(from)}::timestamptz` : "") + (to ? ` AND ${column} < $${params.push(to)}::timestamptz` : "");

  const sums = plan.sums.map(
    ({ grain, range }) =>
      `SELECT c.n FROM audit_counts c WHERE c.chain_id = $1::uuid AND c.actor_id = ${actor ?? "''"}
          AND c.grain = '${grain}'${bound("c.bucket", range)} AND c.event_type ${kinds ? `= ANY(${kinds})` : "= '*'"}`,
  );
  // An edge's events were recorded at most TIMESTAMP_LEAD_MS before its start: that bound keeps
  // the count to the partitions from that month on.
  const recorded = ([from]: Range) => (from ? ` AND ${recordedSince(recordedFloor(from))}` : "");
  const exact = plan.exact.map(
    (range) =>
      `(SELECT count(*) FROM audit_events e WHERE e.tenant_id = $1::uuid${actor ? ` AND e.actor_id = ${actor}` : ""}${
        kinds ? ` AND e.event_type = ANY(${kinds})` : ""
      }${recorded(range)}${bound('e."timestamp"', range)})`,
  );
  const parts = [...exact];
  if (sums.length) parts.push(`(SELECT coalesce(sum(n), 0) FROM (${sums.join(" UNION ALL ")}) s)`);
  // Prepared: its edge counts are planned over every monthly partition (the same few shapes recur).
  const [row] = await sql.query<{ count: string | number }>(`SELECT (${parts.join(" + ")})::bigint AS count`, params, { prepare: true });
  return Number(row!.count);
}
