/**
 * What every service function takes first: the database, who acts (and from where, for the audit
 * trail), and for tenant-scoped work the tenant the procedure resolved. Services take
 * `(ctx, input)`; procedures build the context once with `serviceContext` (server/trpc/context.ts).
 */
import type { Database } from "./db/client.ts";
import type { Principal, RequestInfo } from "./auth/principal.ts";

/**
 * Who calls a service and the request it came through. Not an audit event's actor
 * (`EventActor`, server/events/emit.ts), which `actorOf` derives from it for the record.
 */
export interface Caller {
  principal: Principal;
  request: RequestInfo;
}

export interface ServiceContext {
  db: Database;
  actor: Caller;
}

export interface TenantServiceContext extends ServiceContext {
  tenantId: string;
}
