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

test("housekeeping purges SSO sign-in requests past their expiry (and Test sign-in results after their hour)", async () => {
  const db = await database();
  const [tenant] = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('hk') RETURNING id`);
  const [provider] = await db.sql.query<{ id: string }>(
    `INSERT INTO sso_providers (tenant_id, provider_type, name, metadata_url) VALUES ($1, 'oidc', 'p', 'https://idp.example/x') RETURNING id`,
    [tenant!.id],
  );
  for (const [state, expires] of [
    ["old", "now() - interval '2 minutes'"],
    ["live", "now() + interval '5 minutes'"],
  ] as const) {
    await db.sql.query(
      `INSERT INTO sso_signin_requests (state, tenant_id, provider_id, protocol, purpose, nonce, code_verifier, request_id, binding_hash, expires_at)
       VALUES ($1, $2, $3, 'oidc', 'console', 'n', 'v', '_r', 'b', ${expires})`,
      [state, tenant!.id, provider!.id],
    );
  }
  expect(await runHousekeeping(db)).toMatchObject({ sso_signin_requests_purged: 1 });
  expect((await db.sql.query<{ state: string }>(`SELECT state FROM sso_signin_requests`)).map((r) => r.state)).toEqual(["live"]);
});
