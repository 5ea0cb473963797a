/**
 * "Test against example": a filter checked as on save, then evaluated against an example payload
 * of the chosen kind: the event catalog's example (server/events/catalog) for a control-plane kind,
 * else (a kind the tenant's application appends) one built from the kind alone. Either is shaped
 * as payloadOf builds every payload.
 */
import { randomUUID } from "node:crypto";
import { clock } from "../clock.ts";
import { EVENT_CATALOG, exampleDataOf } from "../events/catalog/index.ts";
import type { EventType } from "../events/types.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { assertFilter, evaluateFilter, type FilterPayload } from "./filter.ts";
import { payloadOf } from "../events/payload.ts";
import type { FilterTestInput, FilterTestResult } from "./schemas.ts";

/** A concrete kind for a subscription: `invoice.*` → `invoice.example`, `*` → `user.created`. */
const exampleKind = (kind: string) => (kind === "*" ? "user.created" : kind.endsWith(".*") ? `${kind.slice(0, -2)}.example` : kind);

export function examplePayload({ tenantId, actor }: TenantServiceContext, kind: string): string {
  const type = exampleKind(kind);
  if (Object.hasOwn(EVENT_CATALOG, type)) {
    const data = exampleDataOf(type as EventType);
    return JSON.stringify({ id: randomUUID(), type, tenant_id: tenantId, created_at: clock.now().toISOString(), data });
  }
  return payloadOf({
    id: randomUUID(),
    type,
    tenantId,
    createdAt: clock.now(),
    actor: { id: actor.principal.userId, email: actor.principal.email },
    target: { type: type.split(".")[0]!, id: randomUUID(), name: "example" },
    details: {},
    source: { type: "platform", token_id: null, user_id: actor.principal.userId },
  });
}

export function testFilter(ctx: TenantServiceContext, input: FilterTestInput): FilterTestResult {
  assertFilter(input.filter);
  const payload = examplePayload(ctx, input.event_type);
  return { ...evaluateFilter(input.filter, JSON.parse(payload) as FilterPayload), payload };
}
