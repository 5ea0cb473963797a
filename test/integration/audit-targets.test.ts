/**
 * Audit events name their target as it was called when they were written (events are immutable),
 * the name is part of the hash chain (in chain version 1 only when present, so events without one
 * hash as before names existed), and an IPv4 client is recorded as 203.0.113.7, not as the
 * IPv4-mapped ::ffff:203.0.113.7.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, operator, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { sendWebResponse, settleClientAddress, toWebRequest } from "../../server/http/node.ts";
import * as rest from "../../app/api/v1/[...path]/route.ts";

const api = apiServer();
let op: Awaited<ReturnType<typeof operator>>;

beforeAll(async () => {
  op = await operator();
});

interface Listed {
  event_type: string;
  sequence: number;
  target: { type: string; id: string; name: string | null } | null;
  metadata: { ip_address: string | null };
}

async function events(tenantId: string, token = op.token): Promise<Listed[]> {
  const res = await client(api.url, token).get(`/api/v1/tenants/${tenantId}/audit?page_size=100`);
  expect(res.status, res.text).toBe(200);
  return res.json.results;
}

/** The target of the one event of `type` (newest first: `index` 0 is the latest). */
async function targetOf(tenantId: string, type: string, index = 0) {
  const found = (await events(tenantId)).filter((e) => e.event_type === type);
  expect(found.length, `${type} events`).toBeGreaterThan(index);
  return found[index]!.target;
}

describe("target names captured when the event is written", () => {
  test("tenant, member, SSO provider, webhook, token and invitation events carry the name they had then", async () => {
    const admin = client(api.url, op.token);
    const tenant = (await admin.post("/api/v1/tenants", { name: "Named Corp" })).json;
    const t = tenant.id as string;
    expect(await targetOf(t, "tenant.created")).toEqual({ type: "tenant", id: t, name: "Named Corp" });

    const member = (await admin.post(`/api/v1/tenants/${t}/members`, { email: "named.member@example.com", role: "viewer" })).json;
    expect(await targetOf(t, "user.created")).toEqual({ type: "user", id: member.user_id, name: "named.member@example.com" });
    expect((await admin.patch(`/api/v1/tenants/${t}/members/${member.user_id}`, { role: "admin" })).status).toBe(200);
    expect(await targetOf(t, "user.updated")).toEqual({ type: "user", id: member.user_id, name: "named.member@example.com" });

    const provider = await admin.post(`/api/v1/tenants/${t}/sso`, {
      provider_type: "saml",
      name: "Okta SAML",
      metadata_url: "https://idp.example.test/metadata",
    });
    expect(provider.status, provider.text).toBe(201);
    expect(await targetOf(t, "sso_provider.created")).toEqual({ type: "sso_provider", id: provider.json.id, name: "Okta SAML" });
    // Renamed: the new event has the new name; the old event keeps the name it was written with.
    expect((await admin.patch(`/api/v1/tenants/${t}/sso/${provider.json.id}`, { name: "Okta (prod)" })).status).toBe(200);
    expect(await targetOf(t, "sso_provider.updated")).toMatchObject({ name: "Okta (prod)" });
    expect(await targetOf(t, "sso_provider.created")).toMatchObject({ name: "Okta SAML" });

    const hook = await admin.post(`/api/v1/tenants/${t}/webhooks`, { url: "https://hooks.example.test/named", events: ["*"] });
    expect(hook.status, hook.text).toBe(201);
    expect(await targetOf(t, "webhook.created")).toEqual({ type: "webhook", id: hook.json.id, name: "https://hooks.example.test/named" });
    expect((await admin.delete(`/api/v1/tenants/${t}/webhooks/${hook.json.id}`)).status).toBe(204);
    expect(await targetOf(t, "webhook.deleted")).toMatchObject({ name: "https://hooks.example.test/named" });

    const token = await admin.post("/api/v1/tokens", { name: "CI deploys", tenant_id: t });
    expect(token.status, token.text).toBe(201);
    expect(await targetOf(t, "api_token.created")).toEqual({ type: "api_token", id: token.json.id, name: "CI deploys" });

    const invitation = await admin.post(`/api/v1/tenants/${t}/invitations`, { email: "invitee@example.com", role: "viewer" });
    expect(invitation.status, invitation.text).toBe(201);
    expect(await targetOf(t, "invitation.created")).toEqual({ type: "invitation", id: invitation.json.id, name: "invitee@example.com" });

    // The export names them too (JSON: the same representation).
    const exported = await admin.get(`/api/v1/tenants/${t}/audit/export?format=json&event_type=tenant.created`);
    expect(JSON.parse(exported.text)[0].target).toEqual({ type: "tenant", id: t, name: "Named Corp" });
  });

  test("an application may name the target of an event it appends; without one the name is null", async () => {
    const world = await tenantWithMembers();
    const admin = client(api.url, world.admin.token);
    const base = `/api/v1/tenants/${world.tenant.id}/audit`;
    const named = await admin.post(base, {
      event_type: "invoice.paid",
      actor: { id: "billing" },
      target: { type: "invoice", id: "inv_1", name: "Invoice 2026-001" },
    });
    expect(named.status, named.text).toBe(201);
    expect(named.json.target).toEqual({ type: "invoice", id: "inv_1", name: "Invoice 2026-001" });
    const unnamed = await admin.post(base, {
      event_type: "invoice.paid",
      actor: { id: "billing" },
      target: { type: "invoice", id: "inv_2" },
    });
    expect(unnamed.json.target).toEqual({ type: "invoice", id: "inv_2", name: null });
    const tooLong = await admin.post(base, {
      event_type: "invoice.paid",
      actor: { id: "b" },
      target: { type: "i", id: "1", name: "x".repeat(321) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.errors.map((e: { path: string }) => e.path)).toContain("target.name");
  });
});

describe("the hash chain with names", () => {
  // The canonical form of chain version 1 spelled out: the array before names existed, and the name
  // as one more element when there is one. Version 2 (every event written now) always hashes the name.
  const V1_ARRAY = `jsonb_build_array(e.sequence, e.id, e.tenant_id, e.event_type, e.actor_id, e.actor_email,
    e.ip_address, e.user_agent, e.target_type, e.target_id, e.details,
    to_char(e."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), e.prev_hash)`;
  const V1_BEFORE = `encode(sha256(convert_to(${V1_ARRAY}::text, 'UTF8')), 'hex')`;
  const V1_WITH_NAME = `encode(sha256(convert_to((${V1_ARRAY} || jsonb_build_array(e.target_name))::text, 'UTF8')), 'hex')`;

  test("version 1: a name is hashed as one more element, an event without one hashes as before", async () => {
    const world = await tenantWithMembers();
    const { sql } = await database();
    // Written as the code before chain versions did: no version (so 1), no source.
    await sql.query(
      `INSERT INTO audit_events (tenant_id, event_type, actor_id, target_type, target_id, target_name)
       VALUES ($1::uuid, 'invoice.paid', 'billing', 'invoice', 'inv_1', NULL), ($1::uuid, 'invoice.paid', 'billing', 'invoice', 'inv_2', 'Invoice two')`,
      [world.tenant.id],
    );
    const rows = await sql.query<{ target_id: string; chain_version: number; stored: string; before: string; with_name: string }>(
      `SELECT e.target_id, e.chain_version::int AS chain_version, e.hash AS stored, ${V1_BEFORE} AS before, ${V1_WITH_NAME} AS with_name
         FROM audit_events e WHERE e.tenant_id = $1::uuid ORDER BY e.sequence`,
      [world.tenant.id],
    );
    expect(rows.map((r) => r.chain_version)).toEqual([1, 1]);
    expect(rows[0]!.stored).toBe(rows[0]!.before);
    expect(rows[1]!.stored).toBe(rows[1]!.with_name);
    expect(rows[1]!.stored).not.toBe(rows[1]!.before);
    const verify = await client(api.url, world.viewer.token).get(`/api/v1/tenants/${world.tenant.id}/audit/verify`);
    expect(verify.json).toMatchObject({ valid: true, checked: 2 });
  });

  test("altering a name breaks the chain at that event", async () => {
    const world = await tenantWithMembers();
    const admin = client(api.url, world.admin.token);
    const base = `/api/v1/tenants/${world.tenant.id}/audit`;
    const batch = await admin.post(`${base}/batch`, {
      events: [
        { event_type: "invoice.paid", actor: { id: "billing" }, target: { type: "invoice", id: "inv_1" } },
        { event_type: "invoice.paid", actor: { id: "billing" }, target: { type: "invoice", id: "inv_2", name: "Invoice two" } },
        { event_type: "invoice.paid", actor: { id: "billing" } },
      ],
    });
    expect(batch.status, batch.text).toBe(201);
    const [, named] = batch.json.results as Array<{ id: string; sequence: number }>;
    expect((await admin.get(`${base}/verify`)).json).toMatchObject({ valid: true, first_invalid_sequence: null });

    // The superuser renames the target behind the log's back: the chain breaks at that event.
    const { sql } = await database();
    await sql.transaction(async (tx) => {
      await tx.query("ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete");
      await tx.query(`UPDATE audit_events SET target_name = 'Invoice 2' WHERE id = $1::uuid`, [named!.id]);
      await tx.query("ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update_delete");
    });
    expect((await admin.get(`${base}/verify`)).json).toMatchObject({ valid: false, first_invalid_sequence: named!.sequence });
  });
});

describe("client addresses", () => {
  test("an IPv4 client of a dual-stack listener is recorded as a.b.c.d, not ::ffff:a.b.c.d", async () => {
    // Listening on "::" (IPv6, dual-stack), a client on 127.0.0.1 is reported as ::ffff:127.0.0.1.
    let seen = "";
    const server = http.createServer(async (req, res) => {
      seen = String(req.socket.remoteAddress);
      // Where requests enter, as the node server does: the address is the socket's.
      settleClientAddress(req, false);
      const address = server.address() as AddressInfo;
      await sendWebResponse(res, await rest.POST(toWebRequest(req, `http://127.0.0.1:${address.port}`)));
    });
    await new Promise<void>((resolve) => server.listen(0, "::", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const created = await client(`http://127.0.0.1:${port}`, op.token).post("/api/v1/tenants", { name: "Dual stack" });
      expect(created.status, created.text).toBe(201);
      expect(seen).toBe("::ffff:127.0.0.1");
      const [event] = await events(created.json.id);
      expect(event!.metadata.ip_address).toBe("127.0.0.1");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
