/** Once per run: a migrated template database that every test file copies; dropped at the end. */
import type { TestProject } from "vitest/node";
import { connectPostgres } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";
import { admin, createDatabase, dropDatabase, uniqueName } from "./databases.ts";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
    runPrefix: string;
  }
}

export default async function setup(project: TestProject) {
  const runPrefix = uniqueName("cp_test");
  const template = `${runPrefix}_template`;
  const url = await createDatabase(template);
  const db = connectPostgres(url, 1);
  await migrate(db.sql);
  await db.close();
  project.provide("templateDatabase", template);
  project.provide("runPrefix", runPrefix);

  return async () => {
    const names = await admin(
      async (c) => (await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${runPrefix}%`])).rows,
    );
    for (const { datname } of names) await dropDatabase(datname);
  };
}
