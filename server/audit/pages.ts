/**
 * What the audit page renders on the server: the first page of events through the same service
 * and access rule as audit.list, for the signed-in user, so the rows are in the HTML the browser
 * receives (the client view takes over from there for filtering and paging).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { log, errorFields } from "../log.ts";
import { appUrl } from "../env.ts";
import type { ConsoleUser } from "../auth/session.ts";
import type { Principal } from "../auth/principal.ts";
import { resolveTenantAccess } from "../auth/access.ts";
import { roleSatisfies } from "../auth/policy.ts";
import { envelope, pageRequest } from "../http/pagination.ts";
import { ListAuditInput, type AuditPage } from "./schemas.ts";
import { listEvents } from "./service.ts";
import { presentEvent } from "./query.ts";
import type { z } from "zod";

/**
 * The audit.list answer for `input` as `user` would get it from the console, or null when it
 * would be an error (bad filters or cursor, no access): the client then asks itself and shows why.
 */
export async function firstAuditPage(user: ConsoleUser, input: Record<string, unknown>): Promise<z.infer<typeof AuditPage> | null> {
  const parsed = ListAuditInput.safeParse(input);
  if (!parsed.success) return null;
  const principal: Principal = {
    userId: user.userId,
    email: user.email,
    platformRole: user.platformRole,
    via: "session",
    token: null,
    sessionId: null,
    ssoTenantId: user.ssoTenantId,
  };
  try {
    const db = await database();
    const tenant = await resolveTenantAccess(db.sql, principal, parsed.data.tenant_id);
    if (!roleSatisfies(tenant.role, "viewer")) return null;
    const ctx = { db, tenantId: tenant.id, actor: { principal, request: { requestId: randomUUID(), ip: null, userAgent: null } } };
    const page = await listEvents(ctx, { ...parsed.data, page: pageRequest(parsed.data) });
    return envelope(new URL(`/api/v1/tenants/${tenant.id}/audit`, appUrl()), parsed.data, page, presentEvent);
  } catch (error) {
    if (!(error instanceof AppError)) log.error("audit page: first page not rendered on the server", errorFields(error));
    return null;
  }
}
