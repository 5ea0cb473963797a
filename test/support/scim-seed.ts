/**
 * Directories and users written straight into the database for the SCIM filter tests (the SQL a
 * filter compiles to, run on Postgres and PGlite), and the ids a filter matches.
 */
import type { SqlStatements } from "../../server/db/sql.ts";
import { parseFilter } from "../../server/directories/scim/filter.ts";
import { filterToSql } from "../../server/directories/scim/filter-sql.ts";
import type { ResourceKind } from "../../server/directories/scim/schema.ts";

export type Json = Record<string, unknown>;
export interface Seed {
  userName: string;
  externalId?: string;
  active: boolean;
  resource: Json;
}

let hint = 0;
export async function newDirectory(runner: SqlStatements, tenant: string): Promise<string> {
  const [row] = await runner.query<{ id: string }>(
    `INSERT INTO directories (tenant_id, name, token_hash, token_hint) VALUES ($1, 'test', $2, 'hint') RETURNING id`,
    [tenant, `hash-${process.pid}-${Date.now()}-${hint++}-${Math.random()}`],
  );
  return row!.id;
}

export async function insertUsers(runner: SqlStatements, directoryId: string, seeds: Seed[], tenant: string) {
  const ids: string[] = [];
  for (const seed of seeds) {
    const name = (seed.resource.name ?? {}) as Json;
    const [row] = await runner.query<{ id: string }>(
      `INSERT INTO directory_users (directory_id, tenant_id, user_name, external_id, active, given_name, family_name, resource)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) RETURNING id`,
      [
        directoryId,
        tenant,
        seed.userName,
        seed.externalId ?? null,
        seed.active,
        name.givenName ?? null,
        name.familyName ?? null,
        JSON.stringify(seed.resource),
      ],
    );
    ids.push(row!.id);
  }
  return ids;
}

export async function matching(runner: SqlStatements, kind: ResourceKind, directoryId: string, text: string): Promise<string[]> {
  const params: unknown[] = [directoryId];
  const where = filterToSql(kind, parseFilter(text), params);
  const table = kind === "User" ? "directory_users" : "directory_groups";
  const rows = await runner.query<{ id: string }>(
    `SELECT r.id FROM ${table} r WHERE r.directory_id = $1 AND ${where} ORDER BY r.id`,
    params,
  );
  return rows.map((row) => row.id);
}

export const seed = (userName: string, resource: Json = {}, extra: Partial<Seed> = {}): Seed => ({
  userName,
  active: true,
  ...extra,
  resource: { userName, active: extra.active ?? true, ...(extra.externalId ? { externalId: extra.externalId } : {}), ...resource },
});
