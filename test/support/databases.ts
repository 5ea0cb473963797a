/**
 * Real Postgres databases for tests. TEST_DATABASE_URL points at a server (any database on it,
 * default the local `postgres`); each run makes a migrated template, each test file a copy.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
}

export async function createDatabase(name: string, template?: string): Promise<string> {
  await admin((c) => c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`));
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
