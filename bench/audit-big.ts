/**
 * The large tenant's part of `npm run bench:audit`: the list filters of issue 12 on one tenant of
 * millions of events, the SQL plans of their count and page queries (the app's own builders, run
 * under EXPLAIN ANALYZE), table and index sizes, and the time to verify the whole chain.
 */
import pg from "pg";
import type { SqlRunner } from "../server/db/sql.ts";
import { chainHead, countEvents, findEvents, resolveFilter } from "../server/audit/query.ts";
import { decodeCursor } from "../server/db/keyset.ts";
import { getJson } from "./harness.ts";

const iso = (daysAgo: number, minutes: number) => {
  const at = new Date(Date.now() - daysAgo * 86_400_000);
  at.setUTCHours(13, minutes, 17, 250);
  return at.toISOString();
};

/** The filters measured: each as a first page and a deep cursor page. */
export function bigFilters(): { name: string; query: string }[] {
  return [
    { name: "unfiltered", query: "" },
    { name: "event_type exact", query: "event_type=user.login_failed" },
    { name: "event_type prefix", query: "event_type=user.*" },
    { name: "date range", query: `start_date=${iso(270, 23)}&end_date=${iso(60, 41)}` },
    { name: "actor_id", query: "actor_id=user_7" },
    { name: "type + actor", query: "event_type=user.login&actor_id=user_7" },
  ];
}

/** The cursor after page 150 of a filter, or ¾ of the way when there are fewer pages (reached by offset once). */
export async function deepCursorOf(app: string, token: string, tenantId: string, query: string): Promise<string> {
  const sep = query ? "&" : "";
  const first = await getJson(`${app}/api/v1/tenants/${tenantId}/audit?${query}`, token);
  const number = Math.max(1, Math.min(150, Math.floor((Number(first.count) / 20) * 0.75)));
  const page = await getJson(`${app}/api/v1/tenants/${tenantId}/audit?${query}${sep}page=${number}`, token);
  if (typeof page.next_cursor !== "string") throw new Error(`no page ${number} for ${query}`);
  return page.next_cursor;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the count and the page query the app runs for `query`. */
export async function explainPlans(
  url: string,
  tenantId: string,
  query: string,
  cursor?: string,
): Promise<{ count: string; page: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const plans: string[] = [];
    let explain = false;
    const sql = {
      query: async (text: string, params?: unknown[]) => {
        if (explain) {
          const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`, params);
          plans.push(rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n"));
        }
        return (await client.query(text, params)).rows;
      },
    } as unknown as SqlRunner;
    const q = new URLSearchParams(query);
    const params = Object.fromEntries(
      ["event_type", "start_date", "end_date", "actor_id"].flatMap((k) => (q.get(k) ? [[k, q.get(k)!]] : [])),
    );
    const head = await chainHead(sql, tenantId);
    const filter = resolveFilter(tenantId, params, head);
    explain = true;
    await countEvents(sql, filter, head);
    const count = plans.pop() ?? "(from the chain head: no query)";
    const after = cursor ? decodeCursor(cursor) : undefined;
    await findEvents(sql, filter, { after, order: "desc", skip: 0, take: cursor ? 21 : 20 });
    return { count, page: plans.pop()! };
  } finally {
    await client.end();
  }
}

export interface Sizes {
  events: number;
  tableMiB: number;
  indexes: { name: string; mib: number }[];
  countsMiB: number;
  countsRows: number;
}

/** audit_events (all partitions) and each of its indexes, and the count rollups. */
export async function sizes(url: string): Promise<Sizes> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const mib = (bytes: string | number) => Number(bytes) / 1048576;
    const events = Number((await client.query(`SELECT count(*) AS n FROM audit_events`)).rows[0].n);
    const table = await client.query(`SELECT sum(pg_table_size(relid)) AS bytes FROM pg_partition_tree('audit_events') WHERE isleaf`);
    const indexes = await client.query(
      `SELECT i.relname AS name, (SELECT sum(pg_relation_size(t.relid)) FROM pg_partition_tree(i.oid) t WHERE t.isleaf) AS bytes
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = 'audit_events'::regclass ORDER BY 1`,
    );
    const counts = await client.query(`SELECT pg_total_relation_size('audit_counts') AS bytes, (SELECT count(*) FROM audit_counts) AS n`);
    return {
      events,
      tableMiB: mib(table.rows[0].bytes),
      indexes: indexes.rows.map((r) => ({ name: r.name, mib: mib(r.bytes) })),
      countsMiB: mib(counts.rows[0].bytes),
      countsRows: Number(counts.rows[0].n),
    };
  } finally {
    await client.end();
  }
}

/** GET …/audit/verify of the whole chain, timed. */
export async function timeVerify(
  app: string,
  token: string,
  tenantId: string,
): Promise<{ seconds: number; checked: number; valid: boolean }> {
  const started = performance.now();
  const result = await getJson(`${app}/api/v1/tenants/${tenantId}/audit/verify`, token);
  return { seconds: (performance.now() - started) / 1000, checked: Number(result.checked), valid: result.valid === true };
}
