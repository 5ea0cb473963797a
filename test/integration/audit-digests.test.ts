import { createHash, generateKeyPairSync } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { compactVerify, createLocalJWKSet } from "jose";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, operator, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { runHousekeeping } from "../../server/app/cron.ts";
import { signDueDigests } from "../../server/audit/digests.ts";
import { clock } from "../../server/clock.ts";

const run = promisify(execFile);
const api = apiServer();
const realNow = clock.now;

afterEach(() => {
  clock.now = realNow;
});

type World = Awaited<ReturnType<typeof tenantWithMembers>>;

async function appendEvents(world: World, n: number) {
  const res = await client(api.url, world.admin.token).post(`/api/v1/tenants/${world.tenant.id}/audit/batch`, {
    events: Array.from({ length: n }, (_, i) => ({ event_type: "invoice.paid", actor: { id: `billing-${i}` }, details: { n: i } })),
  });
  expect(res.status, res.text).toBe(201);
}

async function chainHead(tenantId: string) {
  const { sql } = await database();
  const [head] = await sql.query<{ sequence: string; hash: string }>(`SELECT sequence, hash FROM audit_chains WHERE chain_id = $1::uuid`, [
    tenantId,
  ]);
  return { sequence: Number(head!.sequence), hash: head!.hash };
}

/** Verifies a digest's JWS against the published JWKS (jose, independently of the app's signer). */
async function verifyWithJwks(jws: string) {
  const jwks = await (await fetch(`${api.url}/api/v1/audit/jwks.json`)).json();
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(jwks));
  return { payload: JSON.parse(new TextDecoder().decode(payload)), header: protectedHeader };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("signing a digest on demand", () => {
  test("201 with a JWS over the head that the JWKS verifies; 200 with the same digest when nothing is new; the next chains to it", async () => {
    const world = await tenantWithMembers();
    const admin = client(api.url, world.admin.token);
    const base = `/api/v1/tenants/${world.tenant.id}/audit/digests`;
    await appendEvents(world, 3);

    const first = await admin.post(base);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get("location")).toBe(`${api.url}${base}/${first.json.id}`);
    const head = await chainHead(world.tenant.id);
    expect(first.json).toMatchObject({
      tenant_id: world.tenant.id,
      from_sequence: 1,
      to_sequence: head.sequence,
      head_hash: head.hash,
      previous_digest_hash: null,
    });
    const { payload, header } = await verifyWithJwks(first.json.jws);
    expect(header).toMatchObject({ alg: "EdDSA", kid: first.json.kid });
    const { id: _id, jws: _jws, kid: _kid, ...fields } = first.json;
    expect(payload).toEqual(fields);

    const again = await admin.post(base);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);

    await appendEvents(world, 2);
    const second = await admin.post(base);
    expect(second.status).toBe(201);
    expect(second.json).toMatchObject({
      from_sequence: head.sequence + 1,
      to_sequence: (await chainHead(world.tenant.id)).sequence,
      previous_digest_hash: sha256(first.json.jws),
    });
    expect((await verifyWithJwks(second.json.jws)).payload.previous_digest_hash).toBe(sha256(first.json.jws));

    const list = await client(api.url, world.viewer.token).get(`${base}?page_size=1`);
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ count: 2, previous: null, previous_cursor: null });
    expect(list.json.results).toEqual([second.json]);
    const older = await client(api.url, world.viewer.token).get(`${base}?page_size=1&cursor=${list.json.next_cursor}`);
    expect(older.json.results).toEqual([first.json]);
    expect((await client(api.url, world.viewer.token).get(`${base}/${first.json.id}`)).json).toEqual(first.json);
  });

  test("a log with no events has nothing to sign: 409", async () => {
    const world = await tenantWithMembers();
    const res = await client(api.url, world.admin.token).post(`/api/v1/tenants/${world.tenant.id}/audit/digests`);
    expect(res.status).toBe(409);
    expect(res.json.code).toBe("conflict");
  });

  test("concurrent requests for one tenant make one digest, never a fork", async () => {
    const world = await tenantWithMembers();
    await appendEvents(world, 2);
    const admin = client(api.url, world.admin.token);
    const replies = await Promise.all(Array.from({ length: 6 }, () => admin.post(`/api/v1/tenants/${world.tenant.id}/audit/digests`)));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(replies.map((r) => r.json.id)).size).toBe(1);
  });
});

test("digests are append-only in the database itself", async () => {
  const world = await tenantWithMembers();
  await appendEvents(world, 1);
  const digest = (await client(api.url, world.admin.token).post(`/api/v1/tenants/${world.tenant.id}/audit/digests`)).json;
  const { sql } = await database();
  for (const statement of [
    `UPDATE audit_digests SET head_hash = repeat('0', 64) WHERE id = $1::uuid`,
    `DELETE FROM audit_digests WHERE id = $1::uuid`,
  ]) {
    await expect(sql.query(statement, [digest.id])).rejects.toThrow(/append-only/);
  }
  await expect(sql.query(`TRUNCATE audit_digests`)).rejects.toThrow(/append-only/);
});

describe("who may see and sign digests", () => {
  test("viewer and support list, admin and operator sign, viewer and support may not, another tenant's is 404, the JWKS needs no token", async () => {
    const world = await tenantWithMembers();
    const other = await tenantWithMembers();
    await appendEvents(world, 1);
    const base = `/api/v1/tenants/${world.tenant.id}/audit/digests`;
    const support = await createUser({ platformRole: "support" });
    const supportToken = await createToken(support.id);
    const op = await operator();

    expect((await client(api.url, world.viewer.token).post(base)).status).toBe(403);
    expect((await client(api.url, supportToken).post(base)).status).toBe(403);
    const signed = await client(api.url, op.token).post(base);
    expect(signed.status).toBe(201);
    expect((await client(api.url, world.viewer.token).get(base)).json.count).toBe(1);
    expect((await client(api.url, supportToken).get(base)).json.count).toBe(1);
    expect((await client(api.url, supportToken).get(`${base}/${signed.json.id}`)).status).toBe(200);

    for (const res of [
      await client(api.url, other.admin.token).get(base),
      await client(api.url, other.admin.token).post(base),
      await client(api.url, other.admin.token).get(`${base}/${signed.json.id}`),
      await client(api.url, other.admin.token).get(`/api/v1/tenants/${other.tenant.id}/audit/digests/${signed.json.id}`),
      await client(api.url, world.admin.token).get(`${base}/not-a-uuid`),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await client(api.url).get(base)).status).toBe(401);
    const jwks = await client(api.url).get("/api/v1/audit/jwks.json");
    expect(jwks.status).toBe(200);
    expect(jwks.json.keys.map((k: { kid: string }) => k.kid)).toContain(signed.json.kid);
  });
});

describe("housekeeping", () => {
  test("signs a digest for each tenant with new events, at most hourly, chained, and two instances at once sign one", async () => {
    const world = await tenantWithMembers();
    const quiet = await tenantWithMembers();
    await appendEvents(world, 2);
    const db = await database();
    const digestsOf = (tenantId: string) =>
      db.sql.query<{ from_sequence: string; to_sequence: string; jws: string; previous_digest_hash: string | null }>(
        `SELECT from_sequence, to_sequence, jws, previous_digest_hash FROM audit_digests WHERE tenant_id = $1::uuid ORDER BY from_sequence`,
        [tenantId],
      );

    const [a, b] = await Promise.all([signDueDigests(db), signDueDigests(db)]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    expect(await digestsOf(world.tenant.id)).toHaveLength(1);
    expect(await digestsOf(quiet.tenant.id)).toHaveLength(0);

    await appendEvents(world, 1);
    await runHousekeeping(db);
    expect(await digestsOf(world.tenant.id)).toHaveLength(1); // the last digest is not an hour old

    const later = new Date(Date.now() + 61 * 60 * 1000);
    clock.now = () => later;
    expect((await runHousekeeping(db)).audit_digests_signed).toBeGreaterThanOrEqual(1);
    const digests = await digestsOf(world.tenant.id);
    expect(digests.map((d) => [Number(d.from_sequence), Number(d.to_sequence)])).toEqual([
      [1, 2],
      [3, 3],
    ]);
    expect(digests[1]!.previous_digest_hash).toBe(sha256(digests[0]!.jws));
    expect((await verifyWithJwks(digests[1]!.jws)).payload.signed_at).toBe(later.toISOString());
    expect(await digestsOf(quiet.tenant.id)).toHaveLength(0);
  });
});

describe("rotating AUDIT_SIGNING_KEY", () => {
  test("an instance on a new key signs with it, and both its JWKS and the old instance's still verify the old digests", async () => {
    const world = await tenantWithMembers();
    await appendEvents(world, 1);
    const admin = client(api.url, world.admin.token);
    const old = await admin.post(`/api/v1/tenants/${world.tenant.id}/audit/digests`);
    expect(old.status).toBe(201);
    await appendEvents(world, 1);

    const newKey = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    const cli = async (...args: string[]) =>
      JSON.parse(
        (
          await run("node_modules/.bin/tsx", ["--import", "./scripts/server-only.mjs", "scripts/cli.ts", ...args], {
            env: { ...process.env, AUDIT_SIGNING_KEY: newKey, LOG_LEVEL: "silent" },
          })
        ).stdout,
      );
    const rotated = await cli("audit", "digest", "--tenant", world.tenant.id);
    expect(rotated.created).toBe(true);
    expect(rotated.digest.kid).not.toBe(old.json.kid);
    expect(rotated.digest.previous_digest_hash).toBe(sha256(old.json.jws));

    const newJwks = createLocalJWKSet(await cli("audit", "jwks"));
    for (const jws of [old.json.jws, rotated.digest.jws]) {
      await expect(compactVerify(jws, newJwks)).resolves.toBeDefined();
      await expect(verifyWithJwks(jws)).resolves.toBeDefined();
    }
  }, 60_000);
});
