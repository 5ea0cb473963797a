/**
 * Every event says who wrote it (issue 21, finding 6): `platform` (the control plane's own) or
 * `api` (appended by an application) with the token and user that appended it, set by the server
 * from the credentials and covered by the hash (chain version 2). The REST representation, both
 * exports and the webhook payload show it; the request body cannot set it; altering it in the
 * database breaks the chain at that event, server-side and offline.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse } from "csv-parse/sync";
import pg from "pg";
import { apiServer } from "../support/api-server.ts";
import { consoleAs } from "../support/console-caller.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { storedForm } from "../support/events.ts";
import { database } from "../../server/db/client.ts";
import { hashToken } from "../../server/auth/tokens.ts";
import { encryptSecret } from "../../server/secrets/encryption.ts";

const run = promisify(execFile);
const api = apiServer();
let raw: pg.Client;
let dir: string;
beforeAll(async () => {
  raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await raw.connect();
  dir = mkdtempSync(path.join(tmpdir(), "audit-source-"));
});
afterAll(async () => {
  await raw.end();
  rmSync(dir, { recursive: true, force: true });
});

const PLATFORM = { type: "platform", token_id: null, user_id: null };
const APPENDED = { event_type: "invoice.paid", actor: { id: "billing" }, details: { amount: 1 } };

async function setup() {
  const world = await tenantWithMembers();
  const token = await (await db()).apiToken.findUniqueOrThrow({ where: { tokenHash: hashToken(world.admin.token) } });
  const base = `/api/v1/tenants/${world.tenant.id}/audit`;
  const admin = client(api.url, world.admin.token);
  const viewer = client(api.url, world.viewer.token);
  const byToken = { type: "api", token_id: token.id, user_id: world.admin.user.id };
  return { tenant: world.tenant, adminUser: world.admin.user, base, admin, viewer, byToken };
}

/** Runs `statement` with the append-only triggers switched off (as the superuser can). */
async function tamper(statement: string, params: unknown[]) {
  await raw.query("ALTER TABLE audit_events DISABLE TRIGGER USER");
  try {
    await raw.query(statement, params);
  } finally {
    await raw.query("ALTER TABLE audit_events ENABLE TRIGGER USER");
  }
}

describe("who wrote an event", () => {
  test("appended with a token: source api with that token and its user, in REST, both exports and the webhook payload; a platform event: source platform", async () => {
    const { tenant, admin, viewer, base, byToken } = await setup();
    await (
      await db()
    ).webhook.create({
      data: {
        tenantId: tenant.id,
        url: "https://hooks.example.test/source",
        events: ["*"],
        secretCiphertext: encryptSecret("source-secret-0123456789"),
        secretHint: "6789",
      },
    });
    const appended = await admin.post(base, APPENDED);
    expect(appended.status, appended.text).toBe(201);
    expect(appended.json).toMatchObject({ chain_version: 2, source: byToken });
    // A platform event: the admin invites a member (invitation.created), through the same token.
    const member = await admin.post(`/api/v1/tenants/${tenant.id}/members`, { email: "source.member@example.com", role: "viewer" });
    expect(member.status, member.text).toBe(202);
    const list = await viewer.get(`${base}?page_size=100`);
    const created = list.json.results.find((e: { event_type: string }) => e.event_type === "invitation.created");
    expect(created).toMatchObject({ chain_version: 2, source: PLATFORM });
    expect(storedForm(list.json.results.find((e: { id: string }) => e.id === appended.json.id))).toEqual(appended.json);
    expect((await viewer.get(`${base}/${appended.json.id}`)).json.source).toEqual(byToken);
    expect((await viewer.get(`${base}/${created.id}`)).json.source).toEqual(PLATFORM);

    const json = JSON.parse((await viewer.get(`${base}/export?format=json`)).text) as Array<{ id: string; source: unknown }>;
    expect(json.find((e) => e.id === appended.json.id)!.source).toEqual(byToken);
    expect(json.find((e) => e.id === created.id)!.source).toEqual(PLATFORM);
    const csv = parse((await viewer.get(`${base}/export?format=csv`)).text, { columns: true }) as Array<Record<string, string>>;
    const cells = (id: string) => {
      const r = csv.find((row) => row.id === id)!;
      return [r.chain_version, r.source_type, r.source_token_id, r.source_user_id];
    };
    expect(cells(appended.json.id)).toEqual(["2", "api", byToken.token_id, byToken.user_id]);
    expect(cells(created.id)).toEqual(["2", "platform", "", ""]);

    // The webhook bodies, as stored in the outbox and sent byte for byte on every attempt.
    const { sql } = await database();
    const payloads = await sql.query<{ event_id: string; payload: string }>(
      `SELECT event_id, payload FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])`,
      [[appended.json.id, created.id]],
    );
    const source = (id: string) => JSON.parse(payloads.find((p) => p.event_id === id)!.payload).data.source;
    expect(source(appended.json.id)).toEqual(byToken);
    expect(source(created.id)).toEqual(PLATFORM);
    expect((await viewer.get(`${base}/verify`)).json).toMatchObject({ valid: true, first_invalid_sequence: null });
  });

  test("appended from a console session: source api without a token, with the session's user", async () => {
    const { tenant, adminUser, base, viewer } = await setup();
    const caller = await consoleAs(adminUser.id);
    const event = await caller.audit.append({ tenant_id: tenant.id, ...APPENDED });
    expect(event.source).toEqual({ type: "api", token_id: null, user_id: adminUser.id });
    expect((await viewer.get(`${base}/${event.id}`)).json.source).toEqual(event.source);
  });

  test("a batch's events each carry the appending token", async () => {
    const { admin, base, byToken } = await setup();
    const res = await admin.post(`${base}/batch`, { events: [APPENDED, { ...APPENDED, event_type: "invoice.refunded" }] });
    expect(res.status, res.text).toBe(201);
    expect(res.json.results.map((e: { source: unknown }) => e.source)).toEqual([byToken, byToken]);
  });

  test("the body cannot say who wrote it: `source` or `chain_version` is an unknown field, 400, nothing written", async () => {
    const { admin, base, tenant } = await setup();
    const bodies = [
      { ...APPENDED, source: { type: "platform" } },
      { ...APPENDED, source: "platform" },
      { ...APPENDED, chain_version: 1 },
    ];
    for (const body of bodies) {
      const res = await admin.post(base, body);
      expect(res.status, res.text).toBe(400);
      expect(res.json.errors.map((e: { path: string }) => e.path)).toContain("body");
    }
    const batch = await admin.post(`${base}/batch`, { events: [APPENDED, { ...APPENDED, source: { type: "platform" } }] });
    expect(batch.status, batch.text).toBe(400);
    expect(batch.json.errors.map((e: { path: string }) => e.path)).toContain("events.1");
    const { rows } = await raw.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND event_type LIKE 'invoice.%'`, [
      tenant.id,
    ]);
    expect(rows[0].n).toBe(0);
  });
});

describe("the source in the hash chain (version 2)", () => {
  test("the stored hash is SHA-256 of the version 2 form spelled out: version, the fields, the name, then the source", async () => {
    const { admin, base, tenant } = await setup();
    expect((await admin.post(base, { ...APPENDED, target: { type: "invoice", id: "inv_1" } })).status).toBe(201);
    expect((await admin.post(`/api/v1/tenants/${tenant.id}/members`, { email: "v2.member@example.com", role: "viewer" })).status).toBe(202);
    const { rows } = await raw.query(
      `SELECT e.chain_version, e.hash = encode(sha256(convert_to(jsonb_build_array(2, e.sequence, e.id, e.tenant_id, e.event_type,
                e.actor_id, e.actor_email, e.ip_address, e.user_agent, e.target_type, e.target_id, e.details,
                to_char(e."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), e.prev_hash, e.target_name,
                e.source_type, e.source_token_id, e.source_user_id)::text, 'UTF8')), 'hex') AS spelled_out
         FROM audit_events e WHERE e.tenant_id = $1 ORDER BY e.sequence`,
      [tenant.id],
    );
    expect(rows).toEqual([
      { chain_version: 2, spelled_out: true },
      { chain_version: 2, spelled_out: true },
    ]);
  });

  test.each([
    [
      "an appended event made to read as the platform's",
      "api",
      `UPDATE audit_events SET source_type = 'platform', source_token_id = NULL, source_user_id = NULL WHERE id = $1`,
    ],
    ["an appended event given another token", "api", `UPDATE audit_events SET source_token_id = gen_random_uuid()::text WHERE id = $1`],
    [
      "a platform event made to read as appended",
      "platform",
      `UPDATE audit_events SET source_type = 'api', source_user_id = 'someone' WHERE id = $1`,
    ],
    [
      "a version 2 event passed off as version 1 (no source)",
      "api",
      `UPDATE audit_events SET chain_version = 1, source_type = NULL, source_token_id = NULL, source_user_id = NULL WHERE id = $1`,
    ],
  ])("%s breaks the chain at that event", async (_name, type, statement) => {
    const { admin, base, tenant } = await setup();
    for (let i = 0; i < 2; i++) expect((await admin.post(base, APPENDED)).status).toBe(201);
    expect((await admin.post(`/api/v1/tenants/${tenant.id}/members`, { email: "flip.member@example.com", role: "viewer" })).status).toBe(
      202,
    );
    expect((await admin.post(base, APPENDED)).status).toBe(201);
    const { rows } = await raw.query(
      `SELECT id, sequence::int AS sequence FROM audit_events WHERE tenant_id = $1 AND source_type = $2 ORDER BY sequence DESC LIMIT 1`,
      [tenant.id, type],
    );
    const victim = rows[0] as { id: string; sequence: number };
    await tamper(statement, [victim.id]);
    expect((await admin.get(`${base}/verify`)).json).toMatchObject({ valid: false, first_invalid_sequence: victim.sequence });
  });

  test("a version 1 event given a source behind the log's back breaks the chain (its form would not hash it)", async () => {
    const { admin, base, tenant } = await setup();
    await raw.query(`INSERT INTO audit_events (tenant_id, event_type, actor_id) VALUES ($1, 'old.thing', 'a'), ($1, 'old.thing', 'b')`, [
      tenant.id,
    ]);
    expect((await admin.get(`${base}/verify`)).json).toMatchObject({ valid: true, checked: 2 });
    const claim = `UPDATE audit_events SET source_type = 'platform' WHERE tenant_id = $1 AND sequence = 1`;
    // The CHECK refuses it even with the triggers off; the owner may drop the CHECK, and the hash still tells.
    await expect(tamper(claim, [tenant.id])).rejects.toThrow(/audit_events_source/);
    const check = (
      await raw.query(
        `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'audit_events_source' AND conrelid = 'audit_events'::regclass`,
      )
    ).rows[0].def as string;
    await raw.query(`ALTER TABLE audit_events DROP CONSTRAINT audit_events_source`);
    try {
      await tamper(claim, [tenant.id]);
      expect((await admin.get(`${base}/verify`)).json).toMatchObject({ valid: false, first_invalid_sequence: 1 });
      await tamper(`UPDATE audit_events SET source_type = NULL WHERE tenant_id = $1 AND sequence = 1`, [tenant.id]);
    } finally {
      await raw.query(`ALTER TABLE audit_events ADD CONSTRAINT audit_events_source ${check.replace(/ NOT VALID$/, "")} NOT VALID`);
    }
  });

  test("the database refuses a version 2 row without a source, a version 1 row with one, and an api row without its user", async () => {
    const { tenant } = await setup();
    const insert = (columns: string, values: string) =>
      raw.query(`INSERT INTO audit_events (tenant_id, event_type, ${columns}) VALUES ($1, 'x.y', ${values})`, [tenant.id]);
    await expect(insert("chain_version", "2")).rejects.toThrow(/audit_events_source/);
    await expect(insert("source_type", "'platform'")).rejects.toThrow(/audit_events_source/);
    await expect(insert("chain_version, source_type, source_token_id", "2, 'api', 't'")).rejects.toThrow(/audit_events_source/);
    await expect(insert("chain_version, source_type, source_user_id", "2, 'platform', 'u'")).rejects.toThrow(/audit_events_source/);
    await expect(insert("chain_version, source_type", "3, 'platform'")).rejects.toThrow(/audit_events_source/);
    await insert("chain_version, source_type", "2, 'platform'");
  });

  test("the offline verifier: an export with a source changed (api → platform) fails at that event", async () => {
    const { admin, base } = await setup();
    for (let i = 0; i < 3; i++) expect((await admin.post(base, { ...APPENDED, details: { i } })).status).toBe(201);
    expect((await admin.post(`${base}/digests`)).status).toBe(201);
    const save = async (name: string, url: string, edit = (text: string) => text) => {
      const res = await admin.get(url);
      expect(res.status, res.text).toBe(200);
      const file = path.join(dir, name);
      writeFileSync(file, edit(res.text));
      return file;
    };
    const jwks = await save("jwks.json", "/api/v1/audit/jwks.json");
    const digests = await save("digests.json", `${base}/digests`);
    const verify = async (file: string) => {
      try {
        return {
          code: 0,
          out: (
            await run(process.execPath, ["scripts/verify-audit-export.mjs", "--export", file, "--jwks", jwks, "--digests", digests])
          ).stdout.trim(),
        };
      } catch (error) {
        return { code: (error as { code: number }).code, out: (error as { stderr: string }).stderr.trim() };
      }
    };
    // Sequence 1, appended with the token, made to read as the platform's own event.
    const forgeJson = (text: string) =>
      JSON.stringify((JSON.parse(text) as Array<{ sequence: number }>).map((e) => (e.sequence === 1 ? { ...e, source: PLATFORM } : e)));
    const forgeCsv = (text: string) =>
      text
        .split("\n")
        .map((line) =>
          /^[^,]*,invoice\.paid,.*,1,[0-9a-f]{64},0{64},/.test(line) ? line.replace(/,api,[^,]*,[^,]*$/, ",platform,,") : line,
        )
        .join("\n");
    expect((await verify(await save("ok.json", `${base}/export?format=json`))).out).toMatch(/^OK: .* sequences 1-3 /);
    expect((await verify(await save("ok.csv", `${base}/export?format=csv`))).out).toMatch(/^OK: .* sequences 1-3 /);
    // The oldest event is the last row of the newest-first export.
    const json = await save("forged.json", `${base}/export?format=json`, forgeJson);
    expect(await verify(json)).toEqual({ code: 1, out: "FAILED at sequence 1: the row's fields do not hash to its hash (altered)" });
    const csv = await save("forged.csv", `${base}/export?format=csv`, forgeCsv);
    expect(await verify(csv)).toEqual({ code: 1, out: "FAILED at sequence 1: the row's fields do not hash to its hash (altered)" });
  });
});
