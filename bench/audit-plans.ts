/**
 * Planning against execution for the large tenant's list statements (the app's own builders):
 * each first page, cursor page and count under EXPLAIN (ANALYZE, SUMMARY), planned per call (as
 * an unnamed statement is) and as a prepared statement once Postgres reuses its generic plan (the
 * app names these statements, server/db/sql.ts). Part of `npm run bench:audit`; also on its own:
 *
 *   npx tsx --import ./scripts/server-only.mjs bench/audit-plans.ts <database url> <tenant id>
 */
import pg from "pg";
import type { QueryOptions, SqlRunner } from "../server/db/sql.ts";
import { chainHead, countEvents, findEvents, resolveFilter } from "../server/audit/query.ts";
import type { AuditEventRow } from "../server/events/types.ts";
import { bigFilters } from "./audit-big.ts";

export interface PlanCost {
  filter: string;
  statement: "first page" | "cursor page" | "count";
  /** Medians of 3, in ms: planned per call. */
  customPlanning: number;
  customExecution: number;
  /** Medians of the runs after the switch to the generic plan (runs 7–9 of a prepared statement). */
  preparedPlanning: number;
  preparedExecution: number;
  /** Whether Postgres chose the generic plan by then (plan_cache_mode auto). */
  generic: boolean;
  /** Whether the app forces the generic plan on this statement (prepared "generic", see db/sql.ts). */
  forced?: boolean;
  /** Whether the app prepares it at all (else it is planned per call: the first column). */
  prepared?: boolean;
  partitions: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timings(rows: Record<string, string>[]): { planning: number; execution: number } {
  const text = rows.map((r) => r["QUERY PLAN"]).join("\n");
  return {
    planning: Number(/Planning Time: ([\d.]+)/.exec(text)?.[1] ?? NaN),
    execution: Number(/Execution Time: ([\d.]+)/.exec(text)?.[1] ?? NaN),
  };
}

export async function planCosts(url: string, tenantId: string): Promise<PlanCost[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const partitions = Number(
      (await client.query(`SELECT count(*) AS n FROM pg_inherits WHERE inhparent = 'audit_events'::regclass`)).rows[0].n,
    );
    const captured: { text: string; params: unknown[]; forced: boolean; prepared: boolean }[] = [];
    const sql = {
      query: async (text: string, params: unknown[] = [], options?: QueryOptions) => {
        captured.push({ text, params, forced: options?.prepare === "generic", prepared: Boolean(options?.prepare) });
        return (await client.query(text, params)).rows;
      },
    } as unknown as SqlRunner;
    const literal = (v: unknown) =>
      v instanceof Date
        ? client.escapeLiteral(v.toISOString())
        : Array.isArray(v)
          ? client.escapeLiteral(`{${v.map((x) => JSON.stringify(String(x))).join(",")}}`)
          : client.escapeLiteral(String(v));
    const out: PlanCost[] = [];
    for (const { name, query } of bigFilters()) {
      const q = new URLSearchParams(query);
      const params = Object.fromEntries(
        ["event_type", "start_date", "end_date", "actor_id"].flatMap((k) => (q.get(k) ? [[k, q.get(k)!]] : [])),
      );
      const head = await chainHead(sql, tenantId);
      const filter = resolveFilter(tenantId, params, head);
      captured.length = 0;
      const first = await findEvents(sql, filter, { order: "desc", skip: 0, take: 20 });
      const last = first.at(-1) as AuditEventRow;
      const pages = captured.length;
      await findEvents(sql, filter, { after: { at: new Date(last.timestamp), id: last.id }, order: "desc", skip: 0, take: 21 });
      const cursors = captured.length;
      await countEvents(sql, filter, head);
      const statements = captured.map(
        (s, i) => ({ ...s, kind: i < pages ? "first page" : i < cursors ? "cursor page" : "count" }) as const,
      );
      for (const s of statements.filter((s) => /\baudit_events\b/.test(s.text))) {
        const custom = [];
        for (let k = 0; k < 3; k++) custom.push(timings((await client.query(`EXPLAIN (ANALYZE, SUMMARY) ${s.text}`, s.params)).rows));
        await client.query("DEALLOCATE ALL");
        await client.query(`PREPARE audit_plan AS ${s.text}`);
        const prepared = [];
        const execute = `EXPLAIN (ANALYZE, SUMMARY) EXECUTE audit_plan(${s.params.map(literal).join(", ")})`;
        // As the app runs it: pages it prepares "generic" on connections that force the generic plan.
        if (s.forced) await client.query("SET plan_cache_mode = force_generic_plan");
        for (let k = 0; k < 9; k++) prepared.push(timings((await client.query(execute)).rows));
        await client.query("RESET plan_cache_mode");
        const [state] = (await client.query(`SELECT generic_plans::int AS generic FROM pg_prepared_statements WHERE name = 'audit_plan'`))
          .rows;
        const after = prepared.slice(6);
        out.push({
          filter: name,
          statement: s.kind,
          customPlanning: median(custom.map((t) => t.planning)),
          customExecution: median(custom.map((t) => t.execution)),
          preparedPlanning: median(after.map((t) => t.planning)),
          preparedExecution: median(after.map((t) => t.execution)),
          generic: state.generic > 0,
          forced: s.forced,
          prepared: s.prepared,
          partitions,
        });
      }
      await client.query("DEALLOCATE ALL");
    }
    return out;
  } finally {
    await client.end();
  }
}

export function planCostsMarkdown(costs: PlanCost[]): string {
  const ms = (n: number) => n.toFixed(2);
  return [
    `| Filter | Statement | Planned per call: planning / execution (ms) | Prepared, as the app runs it: planning / execution (ms) | Generic plan |`,
    `|---|---|---|---|---|`,
    ...costs.map(
      (c) =>
        `| ${c.filter} | ${c.statement} | ${ms(c.customPlanning)} / ${ms(c.customExecution)} | ${ms(c.preparedPlanning)} / ${ms(c.preparedExecution)} | ${c.prepared === false ? "none: the app plans it per call" : c.forced ? "forced" : c.generic ? "chosen" : "not chosen"} |`,
    ),
  ].join("\n");
}

if (import.meta.filename === process.argv[1]) {
  const [url, tenantId] = process.argv.slice(2);
  if (!url || !tenantId) {
    console.error("usage: npx tsx --import ./scripts/server-only.mjs bench/audit-plans.ts <database url> <tenant id>");
    process.exit(2);
  }
  const costs = await planCosts(url, tenantId);
  console.log(`${costs[0]?.partitions} partitions of audit_events\n`);
  console.log(planCostsMarkdown(costs));
}
