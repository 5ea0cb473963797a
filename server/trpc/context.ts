/**
 * The tRPC context: the database, the caller (from a bearer token or the console session), where
 * the request came from, and response flags procedures may set (status, Location).
 */
import type { Database } from "../db/client.ts";
import type { Principal, RequestInfo } from "../auth/principal.ts";
import type { ServiceContext, TenantServiceContext } from "../service-context.ts";

export interface ResponseFlags {
  status?: number;
  headers: Record<string, string>;
}

export interface Context {
  db: Database;
  principal: Principal | null;
  /** Why there is no principal: no credentials, or credentials that did not resolve. */
  authError: "missing" | "invalid_token" | null;
  request: RequestInfo;
  /** The request's public URL (scheme and host honour X-Forwarded-* only with TRUST_PROXY). */
  url: URL;
  response: ResponseFlags;
}

/** Marks the response 201 Created with an absolute Location for `path`. */
export function created<T>(ctx: Context, path: string, body: T): T {
  ctx.response.status = 201;
  ctx.response.headers.Location = new URL(path, ctx.url).toString();
  return body;
}

/** Marks the response 201 Created without a Location: the request created several resources. */
export function createdMany<T>(ctx: Context, body: T): T {
  ctx.response.status = 201;
  return body;
}

/** Marks the response 202 Accepted: the request was taken, and completes later (an invitee accepts, say). */
export function accepted<T>(ctx: Context, body: T): T {
  ctx.response.status = 202;
  return body;
}

/** Marks the response 204 No Content. */
export function noContent(ctx: Context): void {
  ctx.response.status = 204;
}

/** The service context of a procedure: its database and caller, and its tenant when it has one. */
export function serviceContext(ctx: Context & { principal: Principal; tenant: { id: string } }): TenantServiceContext;
export function serviceContext(ctx: Context & { principal: Principal }): ServiceContext;
export function serviceContext(ctx: Context & { principal: Principal; tenant?: { id: string } }): ServiceContext | TenantServiceContext {
  const base = { db: ctx.db, actor: { principal: ctx.principal, request: ctx.request } };
  return ctx.tenant ? { ...base, tenantId: ctx.tenant.id } : base;
}
