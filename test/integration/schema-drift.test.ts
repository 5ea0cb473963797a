/**
 * schema.prisma and the migrated database must agree: every model's table, its columns (type,
 * nullability, database default), primary key, unique constraints, indexes and foreign keys.
 * schema.prisma is read with Prisma's own schema parser (prisma-schema-wasm's DMMF).
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import { database } from "../../server/db/client.ts";

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum";
  type: string;
  isRequired: boolean;
  isList: boolean;
  hasDefaultValue: boolean;
  default?: { name: string; args: unknown[] } | string | number | boolean;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationName?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: "id" | "normal" | "unique" | "fulltext";
  dbName?: string | null;
  fields: { name: string }[];
}

const dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: readFileSync("prisma/schema.prisma", "utf8") }))) as {
  datamodel: { models: DmmfModel[]; indexes: DmmfIndex[] };
};
const models = dmmf.datamodel.models;
const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
const columnOf = (model: DmmfModel, fieldName: string) => {
  const field = model.fields.find((f) => f.name === fieldName)!;
  return field.dbName ?? field.name;
};

/** The Postgres type Prisma creates for a scalar field, as information_schema spells it. */
function expectedType(field: DmmfField): string {
  if (field.isList) return `${expectedType({ ...field, isList: false })}[]`;
  const [native, args] = field.nativeType ?? [null, []];
  if (native === "Uuid") return "uuid";
  if (native === "Timestamptz") return `timestamp with time zone(${args[0] ?? 6})`;
  if (native === "Timestamp") return `timestamp without time zone(${args[0] ?? 6})`;
  if (native === "VarChar") return `character varying(${args[0]})`;
  if (native === "Text") return "text";
  if (native) throw new Error(`extend the drift test for @db.${native}`);
  const base: Record<string, string> = {
    String: "text",
    Int: "integer",
    BigInt: "bigint",
    Boolean: "boolean",
    Float: "double precision",
    Json: "jsonb",
    Bytes: "bytea",
    DateTime: "timestamp without time zone(3)",
  };
  const type = base[field.type];
  if (!type) throw new Error(`extend the drift test for ${field.type}`);
  return type;
}

/** Whether Prisma puts a DEFAULT on the column (client-side defaults like uuid() do not). */
function hasDatabaseDefault(field: DmmfField): boolean {
  if (!field.hasDefaultValue) return false;
  const d = field.default;
  // A list's @default([]) is a database default (ARRAY[]::TEXT[]).
  if (Array.isArray(d)) return true;
  if (d && typeof d === "object") return ["dbgenerated", "now", "autoincrement", "sequence"].includes(d.name);
  return true;
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  datetime_precision: number | null;
  character_maximum_length: number | null;
  is_nullable: "YES" | "NO";
  column_default: string | null;
}

/** Indexes Prisma cannot declare (on an expression), by table, as their migrations create them: key columns, then INCLUDEd ones. */
const MIGRATION_ONLY_INDEXES: Record<string, { name: string; columns: string[] }[]> = {
  // 20261203000000_audit_actor_email
  audit_events: [
    {
      name: "audit_events_tenant_id_lower_actor_email_timestamp_id_idx",
      columns: ["tenant_id", "lower(actor_email)", "timestamp", "id", "actor_email", "recorded_at"],
    },
    // 20261215000000_audit_search_indexes
    { name: "audit_events_actor_id_timestamp_id_idx", columns: ["actor_id", "timestamp", "id", "recorded_at"] },
    { name: "audit_events_event_type_timestamp_id_idx", columns: ["event_type", "timestamp", "id", "recorded_at"] },
    {
      name: "audit_events_target_id_timestamp_id_idx",
      columns: ["target_id", "timestamp", "id", "target_type", "tenant_id", "recorded_at"],
    },
    {
      name: "audit_events_tenant_id_target_type_timestamp_id_idx",
      columns: ["tenant_id", "target_type", "timestamp", "id", "recorded_at"],
    },
    {
      name: "audit_events_lower_actor_email_timestamp_id_idx",
      columns: ["lower(actor_email)", "timestamp", "id", "actor_email", "recorded_at"],
    },
  ],
  // 20261201040000_directory_user_filter_indexes
  directory_users: [
    { name: "directory_users_directory_id_lower_family_name_idx", columns: ["directory_id", "lower(family_name)"] },
    { name: "directory_users_directory_id_lower_given_name_idx", columns: ["directory_id", "lower(given_name)"] },
  ],
};

let columns: ColumnRow[];
let indexes: { table: string; name: string; unique: boolean; primary: boolean; columns: string[] }[];
let foreignKeys: { table: string; name: string; columns: string[]; references: string; referencedColumns: string[]; onDelete: string }[];
let tables: string[];

beforeAll(async () => {
  const { sql } = await database();
  tables = (
    await sql.query<{ table_name: string }>(
      // Partitions (audit_events' months) belong to their parent's model, not a model of their own.
      `SELECT t.table_name FROM information_schema.tables t
        WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE'
          AND NOT (SELECT c.relispartition FROM pg_class c WHERE c.oid = format('%I', t.table_name)::regclass)`,
    )
  ).map((r) => r.table_name);
  columns = await sql.query<ColumnRow>(
    `SELECT table_name, column_name, data_type, udt_name, datetime_precision, character_maximum_length, is_nullable, column_default
     FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  indexes = await sql.query(
    `SELECT t.relname AS "table", i.relname AS name, ix.indisunique AS unique, ix.indisprimary AS primary,
            array(SELECT coalesce(a.attname, pg_get_indexdef(ix.indexrelid, k.ord::int, true)) FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, ord)
                  LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns
     FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`,
  );
  foreignKeys = await sql.query(
    `SELECT t.relname AS "table", c.conname AS name, r.relname AS "references",
            array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns,
            array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS "referencedColumns",
            CASE c.confdeltype WHEN 'c' THEN 'Cascade' WHEN 'r' THEN 'Restrict' WHEN 'n' THEN 'SetNull'
                               WHEN 'd' THEN 'SetDefault' ELSE 'NoAction' END AS "onDelete"
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace WHERE c.contype = 'f' AND n.nspname = 'public'`,
  );
});

describe("schema.prisma and the migrated database agree", () => {
  test("the same tables: one per model, plus _prisma_migrations", () => {
    expect([...tables].sort()).toEqual([...models.map(tableOf), "_prisma_migrations"].sort());
  });

  describe.each(models.map((m) => [m.name, m] as const))("%s", (_name, model) => {
    const table = tableOf(model);
    const scalars = model.fields.filter((f) => f.kind !== "object");

    test("columns: names, types, nullability and database defaults", () => {
      const actual = columns
        .filter((c) => c.table_name === table)
        .map((c) => ({
          column: c.column_name,
          // Arrays: information_schema says ARRAY; the element type is the udt name without its "_".
          type:
            c.data_type === "ARRAY"
              ? `${c.udt_name.slice(1)}[]`
              : c.data_type.startsWith("timestamp")
                ? `${c.data_type}(${c.datetime_precision})`
                : c.character_maximum_length
                  ? `${c.data_type}(${c.character_maximum_length})`
                  : c.data_type,
          nullable: c.is_nullable === "YES",
          hasDefault: c.column_default !== null,
        }))
        .sort((a, b) => a.column.localeCompare(b.column));
      const expected = scalars
        .map((f) => ({
          column: f.dbName ?? f.name,
          type: expectedType(f),
          nullable: !f.isRequired,
          hasDefault: hasDatabaseDefault(f),
        }))
        .sort((a, b) => a.column.localeCompare(b.column));
      expect(actual).toEqual(expected);
    });

    test("primary key, unique constraints and indexes (names as Prisma generates them)", () => {
      const declared = dmmf.datamodel.indexes.filter((i) => i.model === model.name && i.type !== "fulltext");
      const expected = declared
        .map((i) => {
          const cols = i.fields.map((f) => columnOf(model, f.name));
          const suffix = i.type === "id" ? "pkey" : i.type === "unique" ? "key" : "idx";
          return {
            name: i.dbName ?? (i.type === "id" ? `${table}_pkey` : `${table}_${cols.join("_")}_${suffix}`),
            unique: i.type !== "normal",
            primary: i.type === "id",
            columns: cols,
          };
        })
        .concat((MIGRATION_ONLY_INDEXES[table] ?? []).map((i) => ({ ...i, unique: false, primary: false })))
        .sort((a, b) => a.name.localeCompare(b.name));
      const actual = indexes
        .filter((i) => i.table === table)
        .map(({ name, unique, primary, columns }) => ({ name, unique, primary, columns }))
        .sort((a, b) => a.name.localeCompare(b.name));
      expect(actual).toEqual(expected);
    });

    test("foreign keys and their delete rules", () => {
      const expected = model.fields
        .filter((f) => f.kind === "object" && f.relationFromFields?.length)
        .map((f) => {
          const target = models.find((m) => m.name === f.type)!;
          const cols = f.relationFromFields!.map((name) => columnOf(model, name));
          return {
            name: `${table}_${cols.join("_")}_fkey`,
            columns: cols,
            references: tableOf(target),
            referencedColumns: f.relationToFields!.map((name) => columnOf(target, name)),
            onDelete: f.relationOnDelete ?? (f.isRequired ? "Restrict" : "SetNull"),
          };
        })
        .sort((a, b) => a.name.localeCompare(b.name));
      const actual = foreignKeys
        .filter((k) => k.table === table)
        .map(({ name, columns, references, referencedColumns, onDelete }) => ({ name, columns, references, referencedColumns, onDelete }))
        .sort((a, b) => a.name.localeCompare(b.name));
      expect(actual).toEqual(expected);
    });
  });
});
