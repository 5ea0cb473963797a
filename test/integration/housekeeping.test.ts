import { expect, test } from "vitest";
import { database } from "../../server/db/client.ts";
import { runHousekeeping } from "../../server/app/cron.ts";

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

test("housekeeping purges the OAuth broker's expired codes and access tokens, keeping live ones", async () => {
  const db = await database();
  const [tenant] = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('hk-broker') RETURNING id`);
  const [provider] = await db.sql.query<{ id: string }>(
    `INSERT INTO sso_providers (tenant_id, provider_type, name, metadata_url) VALUES ($1, 'oidc', 'p', 'https://idp.example/x') RETURNING id`,
    [tenant!.id],
  );
  const [app] = await db.sql.query<{ id: string }>(
    `INSERT INTO sso_applications (name, client_id, client_secret_hash, redirect_uris) VALUES ('a', 'cpapp_hk', 'h', '{https://a.example/cb}') RETURNING id`,
  );
  for (const [name, expires] of [
    ["old", "now() - interval '2 minutes'"],
    ["live", "now() + interval '5 minutes'"],
  ] as const) {
    const [code] = await db.sql.query<{ id: string }>(
      `INSERT INTO sso_authorization_codes (code_hash, application_id, redirect_uri, code_challenge, tenant_id, provider_id, profile, expires_at)
       VALUES ($1, $2, 'https://a.example/cb', 'c', $3, $4, '{}', ${expires}) RETURNING id`,
      [`code-${name}`, app!.id, tenant!.id, provider!.id],
    );
    await db.sql.query(
      `INSERT INTO sso_access_tokens (token_hash, application_id, code_id, tenant_id, provider_id, profile, expires_at)
       VALUES ($1, $2, $3, $4, $5, '{}', ${expires})`,
      [`token-${name}`, app!.id, code!.id, tenant!.id, provider!.id],
    );
  }
  expect(await runHousekeeping(db)).toMatchObject({ sso_broker_grants_purged: 2 });
  expect((await db.sql.query<{ code_hash: string }>(`SELECT code_hash FROM sso_authorization_codes`)).map((r) => r.code_hash)).toEqual([
    "code-live",
  ]);
  expect((await db.sql.query<{ token_hash: string }>(`SELECT token_hash FROM sso_access_tokens`)).map((r) => r.token_hash)).toEqual([
    "token-live",
  ]);
});
