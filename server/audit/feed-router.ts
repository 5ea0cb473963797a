/**
 * The event catalog (`GET /event-types`, any signed-in caller) and the Events API
 * (`GET /tenants/{tenant_id}/events`, tenant viewers): what each kind looks like, and a tenant's
 * events pulled by cursor instead of pushed to a webhook.
 */
import { router } from "../trpc/init.ts";
import { authedProcedure, tenantProcedure } from "../trpc/procedures.ts";
import { serviceContext } from "../trpc/context.ts";
import { NotFound } from "../errors.ts";
import { EVENT_CATALOG, exampleDataOf, jsonSchemaOf } from "../events/catalog/index.ts";
import { EVENT_TYPES, type EventType } from "../events/types.ts";
import { EventTypeInput, EventTypeList, EventTypeDescription, FeedPage, ListFeedInput, MAX_WAIT_SECONDS } from "./feed-schemas.ts";
import { readFeed } from "./event-feed.ts";

function describe(name: EventType): EventTypeDescription {
  const entry = EVENT_CATALOG[name];
  return {
    name,
    description: entry.description,
    group: entry.group,
    schema: jsonSchemaOf(name),
    example: exampleDataOf(name),
    deprecated: "deprecated" in entry ? Boolean(entry.deprecated) : false,
  };
}

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

export const eventFeedRouter = router({
  eventTypes: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/event-types",
        tags: ["Events"],
        summary: "The event catalog",
        description:
          "Every kind the control plane emits: what it means, its group, the JSON Schema 2020-12 of its payload's `data`, and an example.",
        protect: true,
      },
    })
    .input(EventTypeInput.omit({ name: true }))
    .output(EventTypeList)
    .query(() => ({ results: EVENT_TYPES.map(describe) })),

  eventType: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/event-types/{name}", tags: ["Events"], summary: "One kind of the event catalog", protect: true },
    })
    .input(EventTypeInput)
    .output(EventTypeDescription)
    .query(({ input }) => {
      if (!KNOWN.has(input.name)) throw NotFound("Event type");
      return describe(input.name as EventType);
    }),

  list: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: "/tenants/{tenant_id}/events",
        tags: ["Events"],
        summary: "Read the tenant's events by cursor",
        description:
          "The tenant's events in the order they were recorded, as webhooks receive them, each once per cursor position. " +
          `Kept EVENTS_RETENTION_DAYS (default 30): an older cursor answers 410 with \`oldest_cursor\`. \`wait\` (≤ ${MAX_WAIT_SECONDS} s) ` +
          "long-polls: an answer that would be empty comes as soon as an event is recorded.",
        protect: true,
      },
    })
    .input(ListFeedInput)
    .output(FeedPage)
    .query(({ ctx, input }) => readFeed(serviceContext(ctx), input)),
});
