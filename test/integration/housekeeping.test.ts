import { expect, test } from "vitest";
import { database } from "../../server/db/client.ts";
import { runHousekeeping } from "../../server/housekeeping.ts";

test("housekeeping purges expired idempotency keys and keeps live ones", async () => {
  const db = await database();
  await db.sql.query(
    `INSERT INTO idempotency_keys (scope, key, fingerprint, state, locked_until, expires_at) VALUES
     ('s', 'old', 'f', 'completed', now(), now() - interval '1 minute'),
     ('s', 'live', 'f', 'completed', now(), now() + interval '1 hour')`,
  );
  expect(await runHousekeeping(db)).toMatchObject({ idempotency_keys_purged: 1 });
  const keys = await db.sql.query<{ key: string }>(`SELECT key FROM idempotency_keys ORDER BY key`);
  expect(keys.map((k) => k.key)).toEqual(["live"]);
});
