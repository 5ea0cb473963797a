// `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database).
import { database } from "../server/db/client.ts";
import { migrate } from "../server/db/migrate.ts";
import { env } from "../server/env.ts";

try {
  env();
  const db = await database();
  const result = await migrate(db.sql);
  console.log(
    result.applied.length
      ? `Applied ${result.applied.length} migration(s): ${result.applied.join(", ")}`
      : `No pending migrations (${result.alreadyApplied} applied).`,
  );
  await db.close();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
