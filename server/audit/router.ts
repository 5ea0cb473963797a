/**
 * The audit log over REST at /tenants/{tenant_id}/audit. The export streams, so it is served by
 * the REST edge itself (server/http/audit-export.ts), not by a procedure. Static paths come before
 * `/audit/{event_id}`: the REST adapter takes the first path that matches.
 */
import { router } from "../trpc/init.ts";
import { authedProcedure, tenantProcedure } from "../trpc/procedures.ts";
import { created, createdMany, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import {
  AppendAuditBatchInput,
  AppendAuditInTenantInput,
  AuditEvent,
  AuditEventBatch,
  AuditEventInput,
  AuditEventTypes,
  AuditPage,
  AuditVerification,
  ExistingTargets,
  ExistingTargetsInput,
  ListAuditInput,
  TenantAuditInput,
  VerifyAuditInput,
} from "./schemas.ts";
import { appendEvent, appendEvents, eventTypes, getEvent, listEvents } from "./service.ts";
import { verifyChain } from "./verify.ts";
import { existingTargets } from "./targets.ts";
import { digestProcedures } from "./digests-router.ts";
import { AuditSearchPage, SearchAuditInput, withDateAliases } from "./search-schemas.ts";
import { searchEvents } from "./search.ts";

const tags = ["Audit"];
const base = "/tenants/{tenant_id}/audit";

export const auditRouter = router({
  search: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/audit",
        tags,
        summary: "Search every tenant's audit events (operators and support)",
        description:
          "The list's filters across every tenant (and the platform's own events), newest first, each result naming its tenant (`tenant_id`, `tenant_name`). One of `actor_email`, `actor_id`, `target_id`, `event_type` is required (each is indexed across tenants); `target_type` and the dates (`from`/`to`, or `start_date`/`end_date` as in the tenant list) narrow. Operators and support staff only (403 for anyone else, and for a token or session confined to one tenant). Every call writes an `audit.searched` platform event with the caller and the filters. Export: `GET /audit/export`.",
        protect: true,
      },
    })
    .input(SearchAuditInput)
    .output(AuditSearchPage)
    .query(async ({ ctx, input }) =>
      envelope(
        ctx.url,
        input,
        await searchEvents(serviceContext(ctx), { ...withDateAliases(input), page: pageRequest(input) }),
        (event) => event,
      ),
    ),

  list: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: base,
        tags,
        summary: "List audit events",
        description: "Newest first. Filters combine (AND); `event_type` items combine with OR.",
        protect: true,
      },
    })
    .input(ListAuditInput)
    .output(AuditPage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listEvents(serviceContext(ctx), { ...input, page: pageRequest(input) }), (event) => event),
    ),

  eventTypes: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: `${base}/event-types`,
        tags,
        summary: "Event kinds in the tenant's audit log, with counts",
        protect: true,
      },
    })
    .input(TenantAuditInput)
    .output(AuditEventTypes)
    .query(({ ctx }) => eventTypes(serviceContext(ctx))),

  /** Which targets of the events shown still exist, for the console's links (not on REST). */
  existingTargets: tenantProcedure("viewer")
    .input(ExistingTargetsInput)
    .output(ExistingTargets)
    .query(({ ctx, input }) => existingTargets(serviceContext(ctx), input)),

  verify: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: `${base}/verify`,
        tags,
        summary: "Verify the audit hash chain",
        description:
          "Recomputes every hash from `from_sequence` (default 1) to the head and names the first altered, missing or wrongly linked event.",
        protect: true,
      },
    })
    .input(VerifyAuditInput)
    .output(AuditVerification)
    .query(({ ctx, input }) => verifyChain(serviceContext(ctx), input)),

  append: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Append an event from the tenant's application",
        description: "`actor`, `metadata` and `timestamp` (not in the future) are stored as given; `details` at most 32 KiB.",
        protect: true,
      },
    })
    .input(AppendAuditInTenantInput)
    .output(AuditEvent)
    .mutation(async ({ ctx, input }) => {
      const event = await appendEvent(serviceContext(ctx), input);
      return created(ctx, `/api/v1/tenants/${ctx.tenant.id}/audit/${event.id}`, event);
    }),

  appendBatch: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      location: false,
      openapi: {
        method: "POST",
        path: `${base}/batch`,
        tags,
        summary: "Append several events from the tenant's application",
        description:
          "`events`: 1 to 500 events, each as for a single append (a bad one is a 400 naming `events.N.field`). All are recorded in one transaction, contiguous in the chain and in the order sent, or none. 201 (no Location) with `results` in that order.",
        protect: true,
      },
    })
    .input(AppendAuditBatchInput)
    .output(AuditEventBatch)
    .mutation(async ({ ctx, input }) => createdMany(ctx, await appendEvents(serviceContext(ctx), input))),

  ...digestProcedures,

  get: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: `${base}/{event_id}`, tags, summary: "Get an audit event", protect: true } })
    .input(AuditEventInput)
    .output(AuditEvent)
    .query(({ ctx, input }) => getEvent(serviceContext(ctx), input)),
});
