/**
 * What the console's server components ask about tenants before rendering: whether the signed-in
 * user may see one (else the page is a real 404), and the tenant to land in. Reads only, through
 * the same service functions (and visibility rule) as the API.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { ConsoleUser } from "../account/index.ts";
import type { ServiceContext } from "../service-context.ts";
import { hasPendingInvitations } from "../invitations/index.ts";
import { getTenant, listTenants, presentTenant } from "./service.ts";
import type { Tenant } from "./schemas.ts";

async function readContext(user: ConsoleUser): Promise<ServiceContext> {
  return {
    db: await database(),
    actor: {
      principal: { userId: user.userId, email: user.email, platformRole: user.platformRole, via: "session", token: null, sessionId: null },
      request: { requestId: randomUUID(), ip: null, userAgent: null },
    },
  };
}

/** The tenant as tenants.get presents it, when `user` may see it; null for any other id (existing or not). */
export async function visibleTenant(user: ConsoleUser, tenantId: string): Promise<Tenant | null> {
  try {
    return presentTenant(await getTenant(await readContext(user), tenantId));
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/**
 * The only tenant of a member of exactly one (they land in it); null for everyone else, and for
 * whoever has invitations waiting (the tenants list shows them).
 */
export async function soleTenantId(user: ConsoleUser): Promise<string | null> {
  if (user.platformRole) return null;
  const context = await readContext(user);
  const page = await listTenants(context, { page: 1, pageSize: 2 });
  if (page.count !== 1 || (await hasPendingInvitations(context.db, user.userId))) return null;
  return page.items[0]!.id;
}
