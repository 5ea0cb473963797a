/**
 * Applications of the OAuth broker (operators only): registered with a name and exact
 * redirect URIs, given a public client_id and a client secret shown once (stored as SHA-256, as
 * API tokens are). Every change is a platform audit event (no tenant).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { keysetPage, keysetWhere, type PageRequest } from "../../db/keyset.ts";
import { isUuid } from "../../db/ids.ts";
import { Forbidden, NotFound } from "../../errors.ts";
import { actorOf, emitEvent } from "../../events/emit.ts";
import { isOperator } from "../../auth/policy.ts";
import { type Database, sqlIn } from "../../db/client.ts";
import type { ServiceContext } from "../../service-context.ts";
import type { CreateSsoApplicationInput, SsoApplication, UpdateSsoApplicationInput } from "./schemas.ts";

export interface ApplicationRow {
  id: string;
  name: string;
  clientId: string;
  clientSecretHash: string;
  redirectUris: string[];
  createdAt: Date;
  updatedAt: Date;
}

export function presentApplication(row: ApplicationRow): SsoApplication {
  return {
    id: row.id,
    name: row.name,
    client_id: row.clientId,
    redirect_uris: row.redirectUris,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const newClientId = () => `cpapp_${randomBytes(12).toString("hex")}`;
const newClientSecret = () => `cpsec_${randomBytes(32).toString("base64url")}`;

/** Whether `secret` is the application's current client secret (constant-time on the hashes). */
export function secretMatches(row: Pick<ApplicationRow, "clientSecretHash">, secret: string): boolean {
  const given = Buffer.from(sha256(secret), "hex");
  const stored = Buffer.from(row.clientSecretHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}

export async function applicationByClientId(db: Database, clientId: string): Promise<ApplicationRow | null> {
  if (!clientId || clientId.length > 200) return null;
  return db.prisma.ssoApplication.findUnique({ where: { clientId } });
}

function assertOperator(ctx: ServiceContext) {
  if (!isOperator(ctx.actor.principal)) throw Forbidden("Only platform operators may manage SSO applications");
}

async function findApplication(ctx: ServiceContext, id: string): Promise<ApplicationRow> {
  const row = isUuid(id) ? await ctx.db.prisma.ssoApplication.findUnique({ where: { id } }) : null;
  if (!row) throw NotFound("SSO application");
  return row;
}

export async function listApplications(ctx: ServiceContext, page: PageRequest) {
  assertOperator(ctx);
  const db = ctx.db.prisma;
  return keysetPage<ApplicationRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.ssoApplication.count(),
    find: ({ after, order, skip, take }) =>
      db.ssoApplication.findMany({
        where: keysetWhere("createdAt", after, order),
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
}

export async function getApplication(ctx: ServiceContext, id: string): Promise<ApplicationRow> {
  assertOperator(ctx);
  return findApplication(ctx, id);
}

/** Registers an application; the reply alone carries the client secret. `sso.application_created`. */
export async function createApplication(ctx: ServiceContext, input: CreateSsoApplicationInput) {
  assertOperator(ctx);
  const secret = newClientSecret();
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const created = await tx.ssoApplication.create({
      data: { name: input.name, clientId: newClientId(), clientSecretHash: sha256(secret), redirectUris: input.redirect_uris },
    });
    await emitEvent(sqlIn(tx), actorOf(ctx.actor.principal, ctx.actor.request), {
      type: "sso.application_created",
      tenantId: null,
      target: { type: "sso_application", id: created.id, name: created.name },
      details: { name: created.name, client_id: created.clientId, redirect_uris: created.redirectUris },
    });
    return created;
  });
  return { row, secret };
}

/** Renames it or replaces its redirect URIs; `sso.application_updated` with what changed. */
export async function updateApplication(ctx: ServiceContext, input: UpdateSsoApplicationInput): Promise<ApplicationRow> {
  assertOperator(ctx);
  const current = await findApplication(ctx, input.application_id);
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (input.name !== undefined && input.name !== current.name) changes.name = { from: current.name, to: input.name };
  if (input.redirect_uris !== undefined && input.redirect_uris.join("\n") !== current.redirectUris.join("\n")) {
    changes.redirect_uris = { from: current.redirectUris, to: input.redirect_uris };
  }
  if (!Object.keys(changes).length) return current;
  return ctx.db.prisma.$transaction(async (tx) => {
    const updated = await tx.ssoApplication.update({
      where: { id: current.id },
      data: { name: input.name, redirectUris: input.redirect_uris },
    });
    await emitEvent(sqlIn(tx), actorOf(ctx.actor.principal, ctx.actor.request), {
      type: "sso.application_updated",
      tenantId: null,
      target: { type: "sso_application", id: current.id, name: updated.name },
      details: { changes },
    });
    return updated;
  });
}

/** Deletes it with its pending sign-ins, codes and access tokens. `sso.application_deleted`. */
export async function deleteApplication(ctx: ServiceContext, id: string): Promise<void> {
  assertOperator(ctx);
  const current = await findApplication(ctx, id);
  await ctx.db.prisma.$transaction(async (tx) => {
    await tx.ssoApplication.delete({ where: { id: current.id } });
    await emitEvent(sqlIn(tx), actorOf(ctx.actor.principal, ctx.actor.request), {
      type: "sso.application_deleted",
      tenantId: null,
      target: { type: "sso_application", id: current.id, name: current.name },
      details: { name: current.name, client_id: current.clientId },
    });
  });
}

/** A new client secret (returned once); the old one stops working at once. `sso.application_secret_rotated`. */
export async function rotateApplicationSecret(ctx: ServiceContext, id: string) {
  assertOperator(ctx);
  const current = await findApplication(ctx, id);
  const secret = newClientSecret();
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const updated = await tx.ssoApplication.update({ where: { id: current.id }, data: { clientSecretHash: sha256(secret) } });
    await emitEvent(sqlIn(tx), actorOf(ctx.actor.principal, ctx.actor.request), {
      type: "sso.application_secret_rotated",
      tenantId: null,
      target: { type: "sso_application", id: current.id, name: current.name },
      details: { name: current.name, client_id: current.clientId },
    });
    return updated;
  });
  return { row, secret };
}
