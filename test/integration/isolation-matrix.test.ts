/**
 * Every REST operation × every kind of caller that must be kept out (or kept to reading), built
 * from the router itself: a new endpoint without an entry here fails the first test.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db, tenantWithMembers } from "../support/fixtures.ts";
import { appRouter } from "../../server/app/router.ts";
import type { Meta } from "../../server/trpc/meta.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";
import { database } from "../../server/db/client.ts";
import { emitEvent } from "../../server/events/emit.ts";
import { encryptSecret } from "../../server/secrets/encryption.ts";
import { createDigest } from "../../server/audit/digests.ts";
import { SYSTEM_PRINCIPAL, SYSTEM_REQUEST } from "../../server/auth/principal.ts";
import { EVENT_CATALOG } from "../../server/events/catalog/index.ts";

const SSO_BODY = { provider_type: "saml", name: "Matrix IdP", metadata_url: "https://idp.invalid/metadata.xml" };

const CALLERS = ["none", "bad", "revoked", "expired", "otherAdmin", "viewer", "support", "readOnly", "scopedOther"] as const;
type Caller = (typeof CALLERS)[number];

interface World {
  tenantA: { id: string; name: string };
  providerId: string;
  applicationId: string;
  auditEventId: string;
  digestId: string;
  webhookId: string;
  streamId: string;
  deliveryId: string;
  recoverJobId: string;
  domainId: string;
  directoryId: string;
  directoryUserId: string;
  directoryGroupId: string;
  viewerId: string;
  adminEmail: string;
  adminTokenId: string;
  tokens: Record<Caller, string | undefined>;
}

type Example = {
  request: (w: World) => { path: string; body?: unknown };
  /** Statuses that differ from what the operation's access kind implies. */
  expect?: Partial<Record<Caller, number>>;
};

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
let resets = 0;
const everyCaller = (status: number) => Object.fromEntries(CALLERS.map((c) => [c, status])) as Record<Caller, number>;

const EXAMPLES: Record<string, Example> = {
  "GET /tenants": { request: () => ({ path: "/tenants" }) },
  "POST /tenants": { request: () => ({ path: "/tenants", body: { name: "Matrix" } }) },
  "GET /tenants/{tenant_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}` }),
    expect: { otherAdmin: 404, scopedOther: 404 },
  },
  "GET /tenants/{tenant_id}/members": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/members` }) },
  "POST /tenants/{tenant_id}/members": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/members`, body: { email: "matrix@example.com", role: "admin" } }),
  },
  "GET /tenants/{tenant_id}/members/{user_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/members/${w.viewerId}` }) },
  "PATCH /tenants/{tenant_id}/members/{user_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/members/${w.viewerId}`, body: { role: "admin" } }),
  },
  "DELETE /tenants/{tenant_id}/members/{user_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/members/${w.viewerId}` }) },
  "GET /tokens": { request: () => ({ path: "/tokens" }) },
  "POST /tokens": {
    // Valid callers mint their own token; never one for tenant A (they are not in it).
    request: (w) => ({ path: "/tokens", body: { name: "matrix", tenant_id: w.tenantA.id } }),
    expect: { otherAdmin: 400, viewer: 201, support: 201, scopedOther: 403 },
  },
  "DELETE /tokens/{token_id}": {
    request: (w) => ({ path: `/tokens/${w.adminTokenId}` }),
    expect: { otherAdmin: 404, viewer: 404, support: 404, scopedOther: 404 },
  },
  "GET /me": { request: () => ({ path: "/me" }) },
  // Platform users: support may list, only operators (not in this matrix) may change anything.
  "GET /users": { request: () => ({ path: "/users" }), expect: { otherAdmin: 403, viewer: 403, readOnly: 403, scopedOther: 403 } },
  "POST /users": {
    request: () => ({ path: "/users", body: { email: "matrix-op@example.com", password: "a-long-password", platform_role: "operator" } }),
  },
  "PATCH /users/{user_id}": { request: (w) => ({ path: `/users/${w.viewerId}`, body: { platform_role: "operator" } }) },
  // The platform audit search: support may search, like platform users; a tenant's people may not.
  "GET /audit": {
    request: () => ({ path: "/audit?actor_email=nobody@example.com" }),
    expect: { otherAdmin: 403, viewer: 403, readOnly: 403, scopedOther: 403 },
  },
  // Expiring SAML certificates across tenants: support may list, like platform users.
  "GET /sso-certificates/expiring": {
    request: () => ({ path: "/sso-certificates/expiring" }),
    expect: { otherAdmin: 403, viewer: 403, readOnly: 403, scopedOther: 403 },
  },
  // OAuth broker applications: platform operators only (not in this matrix), everyone else 403.
  "GET /sso/applications": { request: () => ({ path: "/sso/applications" }) },
  "POST /sso/applications": {
    request: () => ({ path: "/sso/applications", body: { name: "Matrix app", redirect_uris: ["https://matrix.example/cb"] } }),
  },
  "GET /sso/applications/{application_id}": { request: (w) => ({ path: `/sso/applications/${w.applicationId}` }) },
  "PATCH /sso/applications/{application_id}": {
    request: (w) => ({ path: `/sso/applications/${w.applicationId}`, body: { name: "Renamed" } }),
  },
  "DELETE /sso/applications/{application_id}": { request: (w) => ({ path: `/sso/applications/${w.applicationId}` }) },
  "POST /sso/applications/{application_id}/rotate-secret": {
    request: (w) => ({ path: `/sso/applications/${w.applicationId}/rotate-secret` }),
  },
  // SSO with the tenant implied by the caller: B's admin lands in B (its only tenant), support
  // in no tenant (400), A's viewer and A's read-only token in A.
  "GET /sso": { request: () => ({ path: "/sso" }), expect: { otherAdmin: 200, scopedOther: 200, support: 400 } },
  "POST /sso": {
    request: () => ({ path: "/sso", body: SSO_BODY }),
    expect: { otherAdmin: 201, scopedOther: 201, support: 400 },
  },
  "GET /sso/{provider_id}": { request: (w) => ({ path: `/sso/${w.providerId}` }), expect: { support: 400 } },
  "PATCH /sso/{provider_id}": { request: (w) => ({ path: `/sso/${w.providerId}`, body: { name: "Renamed" } }), expect: { support: 400 } },
  "DELETE /sso/{provider_id}": { request: (w) => ({ path: `/sso/${w.providerId}` }), expect: { support: 400 } },
  "POST /sso/{provider_id}/refresh-metadata": {
    request: (w) => ({ path: `/sso/${w.providerId}/refresh-metadata` }),
    expect: { support: 400 },
  },
  "GET /tenants/{tenant_id}/sso": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/sso` }) },
  "POST /tenants/{tenant_id}/sso": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/sso`, body: SSO_BODY }) },
  "GET /tenants/{tenant_id}/sso/{provider_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/sso/${w.providerId}` }) },
  "PATCH /tenants/{tenant_id}/sso/{provider_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/sso/${w.providerId}`, body: { name: "Renamed" } }),
  },
  "DELETE /tenants/{tenant_id}/sso/{provider_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/sso/${w.providerId}` }) },
  "POST /tenants/{tenant_id}/sso/{provider_id}/refresh-metadata": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/sso/${w.providerId}/refresh-metadata` }),
    expect: { viewer: 403, support: 403, readOnly: 403 },
  },
  "POST /tenants/{tenant_id}/sso/{provider_id}/test-signin": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/sso/${w.providerId}/test-signin` }),
  },
  "GET /tenants/{tenant_id}/sso/{provider_id}/test-signin/{request_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/sso/${w.providerId}/test-signin/${w.providerId}` }),
  },
  "POST /auth/step-up": {
    request: () => ({ path: "/auth/step-up", body: { password: "not-the-password" } }),
    expect: { otherAdmin: 401, viewer: 401, support: 401, readOnly: 401, scopedOther: 401 },
  },
  "GET /tenants/{tenant_id}/audit": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/audit` }) },
  "POST /tenants/{tenant_id}/audit": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/audit`, body: { event_type: "matrix.appended", actor: { id: "matrix" } } }),
  },
  "POST /tenants/{tenant_id}/audit/batch": {
    request: (w) => ({
      path: `/tenants/${w.tenantA.id}/audit/batch`,
      body: { events: [{ event_type: "matrix.appended", actor: { id: "matrix" } }] },
    }),
  },
  "GET /tenants/{tenant_id}/audit/event-types": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/audit/event-types` }) },
  "GET /tenants/{tenant_id}/audit/verify": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/audit/verify` }) },
  "GET /tenants/{tenant_id}/events": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/events` }) },
  "GET /event-types": { request: () => ({ path: "/event-types" }) },
  "GET /event-types/{name}": { request: () => ({ path: "/event-types/user.login" }) },
  "GET /tenants/{tenant_id}/audit/digests": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/audit/digests` }) },
  "POST /tenants/{tenant_id}/audit/digests": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/audit/digests` }) },
  "GET /tenants/{tenant_id}/audit/digests/{digest_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/audit/digests/${w.digestId}` }),
  },
  // Public: credentials, good or bad, play no part.
  // Invitations: tenant admins only; the public side answers the same to every caller (the link is the credential).
  "GET /tenants/{tenant_id}/invitations": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/invitations` }) },
  "POST /tenants/{tenant_id}/invitations": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/invitations`, body: { email: "matrix-invitee@example.com", role: "viewer" } }),
  },
  "POST /tenants/{tenant_id}/invitations/{invitation_id}/resend": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/invitations/${UNKNOWN_ID}/resend` }),
  },
  "DELETE /tenants/{tenant_id}/invitations/{invitation_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/invitations/${UNKNOWN_ID}` }),
  },
  "POST /invitations/lookup": {
    request: () => ({ path: "/invitations/lookup", body: { token: "matrix-unknown-link-token" } }),
    expect: everyCaller(404),
  },
  "POST /invitations/accept": {
    request: () => ({ path: "/invitations/accept", body: { token: "matrix-unknown-link-token", password: "a-long-password" } }),
    expect: everyCaller(404),
  },
  // The caller's own invitations: none in this world; a tenant-scoped token is refused, a read-only one may only list.
  "GET /me/invitations": { request: () => ({ path: "/me/invitations" }), expect: { scopedOther: 403 } },
  "POST /me/invitations/{invitation_id}/accept": {
    request: () => ({ path: `/me/invitations/${UNKNOWN_ID}/accept` }),
    expect: { otherAdmin: 404, viewer: 404, support: 404, scopedOther: 403 },
  },
  // Always 202, whoever asks and whether or not the email exists (a new address each time: 5 per email).
  "POST /auth/password-reset": {
    request: () => ({ path: "/auth/password-reset", body: { email: `matrix-${resets++}@example.com` } }),
    expect: everyCaller(202),
  },
  "POST /auth/password-reset/confirm": {
    request: () => ({ path: "/auth/password-reset/confirm", body: { token: "matrix-unknown-link-token", password: "a-long-password" } }),
    expect: everyCaller(404),
  },
  "GET /audit/jwks.json": { request: () => ({ path: "/audit/jwks.json" }), expect: { none: 200, bad: 200, revoked: 200, expired: 200 } },
  "GET /tenants/{tenant_id}/audit/{event_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/audit/${w.auditEventId}` }) },
  "GET /tenants/{tenant_id}/webhooks": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks` }) },
  "GET /tenants/{tenant_id}/log-streams": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/log-streams` }) },
  "POST /tenants/{tenant_id}/log-streams": {
    request: (w) => ({
      path: `/tenants/${w.tenantA.id}/log-streams`,
      body: { name: "Matrix", type: "https", config: { url: "https://siem.invalid/matrix" } },
    }),
  },
  "GET /tenants/{tenant_id}/log-streams/{stream_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/log-streams/${w.streamId}` }) },
  "PATCH /tenants/{tenant_id}/log-streams/{stream_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/log-streams/${w.streamId}`, body: { name: "Renamed" } }),
  },
  "DELETE /tenants/{tenant_id}/log-streams/{stream_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/log-streams/${w.streamId}` }),
  },
  "POST /tenants/{tenant_id}/log-streams/{stream_id}/test": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/log-streams/${w.streamId}/test` }),
  },
  "GET /tenants/{tenant_id}/log-streams/{stream_id}/batches": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/log-streams/${w.streamId}/batches` }),
  },
  "POST /tenants/{tenant_id}/webhooks": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks`, body: { url: "https://hooks.invalid/matrix", events: ["*"] } }),
  },
  "GET /tenants/{tenant_id}/webhooks/{webhook_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}` }) },
  "PATCH /tenants/{tenant_id}/webhooks/{webhook_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}`, body: { description: "Renamed" } }),
  },
  "DELETE /tenants/{tenant_id}/webhooks/{webhook_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}` }) },
  "POST /tenants/{tenant_id}/webhooks/{webhook_id}/rotate-secret": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}/rotate-secret`, body: {} }),
  },
  "POST /tenants/{tenant_id}/webhooks/filter-test": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/filter-test`, body: { filter: "true", event_type: "*" } }),
  },
  "POST /tenants/{tenant_id}/webhooks/{webhook_id}/recover": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}/recover`, body: { since: "2026-01-01T00:00:00Z" } }),
  },
  "GET /tenants/{tenant_id}/webhooks/{webhook_id}/recover/{job_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}/recover/${w.recoverJobId}` }),
  },
  "POST /tenants/{tenant_id}/webhooks/{webhook_id}/test": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}/test` }),
  },
  "GET /tenants/{tenant_id}/webhooks/{webhook_id}/deliveries": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}/deliveries` }),
  },
  "GET /tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}/deliveries/${w.deliveryId}` }),
  },
  "POST /tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/webhooks/${w.webhookId}/deliveries/${w.deliveryId}/retry` }),
  },
  "GET /tenants/{tenant_id}/domains": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/domains` }) },
  "POST /tenants/{tenant_id}/domains": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/domains`, body: { domain: "matrix.example.com" } }),
  },
  "GET /tenants/{tenant_id}/domains/{domain_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/domains/${w.domainId}` }) },
  "POST /tenants/{tenant_id}/domains/{domain_id}/verify": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/domains/${w.domainId}/verify` }),
  },
  "PATCH /tenants/{tenant_id}/domains/{domain_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/domains/${w.domainId}`, body: { auto_join: false } }),
  },
  "DELETE /tenants/{tenant_id}/domains/{domain_id}": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/domains/${w.domainId}` }) },
  "GET /tenants/{tenant_id}/setup-links": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/setup-links` }) },
  "POST /tenants/{tenant_id}/setup-links": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/setup-links`, body: { intent: "sso" } }) },
  "GET /tenants/{tenant_id}/setup-links/{setup_link_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/setup-links/${UNKNOWN_ID}` }),
  },
  "DELETE /tenants/{tenant_id}/setup-links/{setup_link_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/setup-links/${UNKNOWN_ID}` }),
  },
  "GET /tenants/{tenant_id}/directories": { request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories` }) },
  "POST /tenants/{tenant_id}/directories": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories`, body: { name: "Matrix directory" } }),
  },
  "GET /tenants/{tenant_id}/directories/{directory_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories/${w.directoryId}` }),
  },
  "PATCH /tenants/{tenant_id}/directories/{directory_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories/${w.directoryId}`, body: { name: "Renamed" } }),
  },
  "DELETE /tenants/{tenant_id}/directories/{directory_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories/${w.directoryId}` }),
  },
  "POST /tenants/{tenant_id}/directories/{directory_id}/rotate-token": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories/${w.directoryId}/rotate-token` }),
  },
  "GET /tenants/{tenant_id}/directories/{directory_id}/users": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories/${w.directoryId}/users` }),
  },
  "GET /tenants/{tenant_id}/directories/{directory_id}/users/{directory_user_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories/${w.directoryId}/users/${w.directoryUserId}` }),
  },
  "GET /tenants/{tenant_id}/directories/{directory_id}/groups": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories/${w.directoryId}/groups` }),
  },
  "GET /tenants/{tenant_id}/directories/{directory_id}/groups/{directory_group_id}": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories/${w.directoryId}/groups/${w.directoryGroupId}` }),
  },
  "GET /tenants/{tenant_id}/directories/{directory_id}/requests": {
    request: (w) => ({ path: `/tenants/${w.tenantA.id}/directories/${w.directoryId}/requests` }),
  },
};

const operations = Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>)
  .map((p) => p._def.meta)
  .filter((meta): meta is Meta & { openapi: NonNullable<Meta["openapi"]> } => Boolean(meta?.openapi))
  .map((meta) => ({
    key: `${meta.openapi.method} ${meta.openapi.path}`,
    method: meta.openapi.method,
    access: meta.access,
    write: meta.write,
  }));

function expected(op: (typeof operations)[number], caller: Caller): number {
  const override = EXAMPLES[op.key]?.expect?.[caller];
  if (override) return override;
  if (["none", "bad", "revoked", "expired"].includes(caller)) return 401;
  const ok = op.method === "POST" ? 201 : op.method === "DELETE" ? 204 : 200;
  switch (op.access) {
    case "operator":
      return 403;
    case "tenant:viewer":
      return ["otherAdmin", "scopedOther"].includes(caller) ? 404 : ok;
    case "tenant:admin":
      return ["otherAdmin", "scopedOther"].includes(caller) ? 404 : 403;
    default:
      if (op.write && caller === "readOnly") return 403;
      return ok;
  }
}

const api = apiServer();
let world: World;

beforeAll(async () => {
  const a = await tenantWithMembers("Alpha Secret Tenant");
  const b = await tenantWithMembers("Bravo Tenant");
  const prisma = await db();
  const support = await createUser({ platformRole: "support" });
  const dual = await createUser();
  await prisma.membership.createMany({
    data: [
      { tenantId: a.tenant.id, userId: dual.id, role: "admin" },
      { tenantId: b.tenant.id, userId: dual.id, role: "admin" },
    ],
  });
  const adminToken = await prisma.apiToken.findFirstOrThrow({ where: { userId: a.admin.user.id } });
  const provider = await prisma.ssoProvider.create({
    data: { tenantId: a.tenant.id, providerType: "saml", name: "Alpha IdP", metadataUrl: "https://idp.invalid/a.xml" },
  });
  const application = await prisma.ssoApplication.create({
    data: { name: "Matrix app", clientId: "cpapp_matrix", clientSecretHash: "0".repeat(64), redirectUris: ["https://matrix.example/cb"] },
  });
  const auditEvent = await emitEvent(
    (await database()).sql,
    { id: a.admin.user.id, email: a.admin.user.email, ip: null, userAgent: null },
    {
      type: "sso_provider.created",
      tenantId: a.tenant.id,
      target: { type: "sso_provider", id: provider.id },
      details: EVENT_CATALOG["sso_provider.created"].example,
    },
  );
  const { digest } = await createDigest({
    db: await database(),
    actor: { principal: SYSTEM_PRINCIPAL, request: SYSTEM_REQUEST },
    tenantId: a.tenant.id,
  });
  const webhook = await prisma.webhook.create({
    data: {
      tenantId: a.tenant.id,
      url: "https://hooks.invalid/a",
      events: ["*"],
      secretCiphertext: encryptSecret("matrix-secret-0123456789"),
      secretHint: "6789",
    },
  });
  const delivery = await prisma.webhookDelivery.create({
    data: {
      tenantId: a.tenant.id,
      webhookId: webhook.id,
      eventId: auditEvent.id,
      eventType: "sso_provider.created",
      payload: "{}",
      status: "exhausted",
    },
  });
  const recoverJob = await prisma.webhookRecoverJob.create({
    data: { tenantId: a.tenant.id, webhookId: webhook.id, since: new Date("2026-01-01T00:00:00Z") },
  });
  const stream = await prisma.logStream.create({
    data: { tenantId: a.tenant.id, name: "Alpha stream", type: "https", config: { url: "https://siem.invalid/a" } },
  });
  const domain = await prisma.domain.create({
    data: { tenantId: a.tenant.id, domain: "alpha-matrix.example.com", verificationValue: "control-plane-verification=matrix" },
  });
  const directory = await prisma.directory.create({
    data: { tenantId: a.tenant.id, name: "Alpha directory", tokenHash: "1".repeat(64), tokenHint: "1111" },
  });
  const directoryUser = await prisma.directoryUser.create({
    data: {
      directoryId: directory.id,
      tenantId: a.tenant.id,
      userName: "matrix@alpha.example",
      resource: { userName: "matrix@alpha.example" },
    },
  });
  const directoryGroup = await prisma.directoryGroup.create({
    data: { directoryId: directory.id, tenantId: a.tenant.id, displayName: "Matrix group", resource: { displayName: "Matrix group" } },
  });
  world = {
    tenantA: a.tenant,
    domainId: domain.id,
    directoryId: directory.id,
    directoryUserId: directoryUser.id,
    directoryGroupId: directoryGroup.id,
    webhookId: webhook.id,
    streamId: stream.id,
    deliveryId: delivery.id,
    recoverJobId: recoverJob.id,
    providerId: provider.id,
    applicationId: application.id,
    auditEventId: auditEvent.id,
    digestId: digest.id,
    viewerId: a.viewer.user.id,
    adminEmail: a.admin.user.email,
    adminTokenId: adminToken.id,
    tokens: {
      none: undefined,
      bad: "cp_this-token-does-not-exist-anywhere-at-all",
      revoked: await createToken(a.admin.user.id, { revokedAt: new Date() }),
      expired: await createToken(a.admin.user.id, { expiresAt: new Date(Date.now() - 60_000) }),
      otherAdmin: b.admin.token,
      viewer: a.viewer.token,
      support: await createToken(support.id),
      readOnly: await createToken(a.admin.user.id, { readOnly: true }),
      scopedOther: await createToken(dual.id, { tenantId: b.tenant.id }),
    },
  };
});
afterAll(async () => {
  await metadataChecksIdle();
});

test("every REST operation has an entry in the matrix", () => {
  expect(operations.length).toBeGreaterThan(10);
  const missing = operations.map((o) => o.key).filter((key) => !EXAMPLES[key]);
  expect(missing).toEqual([]);
  expect(Object.keys(EXAMPLES).filter((key) => !operations.some((o) => o.key === key))).toEqual([]);
});

describe.each(operations.map((op) => [op.key, op] as const))("%s", (_key, op) => {
  test.each(CALLERS.map((c) => [c]))("as %s", async (caller) => {
    const { path, body } = EXAMPLES[op.key]!.request(world);
    const res = await client(api.url, world.tokens[caller]).call(op.method, `/api/v1${path}`, body);
    expect(res.status, res.text).toBe(expected(op, caller));
    if (res.status >= 400) expect(res.headers.get("content-type")).toBe("application/problem+json");
    if (res.status === 401) expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    if (["none", "bad", "revoked", "expired", "otherAdmin", "scopedOther"].includes(caller)) {
      // Nothing of tenant A may show, whatever the status.
      expect(res.text).not.toContain(world.tenantA.name);
      expect(res.text).not.toContain(world.adminEmail);
      if (res.status >= 400) expect(res.text).not.toContain(world.tenantA.id);
    }
  });
});
