/**
 * The Events API's and the event catalog's REST shapes: a tenant's events as webhooks get them,
 * read by cursor (`GET /tenants/{tenant_id}/events`), and the kinds' descriptions and schemas
 * (`GET /event-types`). Pure zod.
 */
import { z } from "zod";
import { EVENT_GROUPS } from "../events/catalog/index.ts";
import { auditFilterFields } from "./schemas.ts";

export const MAX_FEED_LIMIT = 500;
export const DEFAULT_FEED_LIMIT = 100;
export const MAX_WAIT_SECONDS = 30;

export const ListFeedInput = z.object({
  tenant_id: z.string().max(100),
  after: z
    .string()
    .max(100, "is too long")
    .meta({ description: "The `next_cursor` of the previous answer. Omitted: from the oldest event kept." })
    .optional(),
  event_types: auditFilterFields.event_type
    .unwrap()
    .meta({
      description: "Only these kinds: exact (`user.login`), comma list or prefix (`user.*`). The cursor still moves past the others.",
    })
    .optional(),
  limit: z.coerce
    .number({ error: `must be a number from 1 to ${MAX_FEED_LIMIT}` })
    .int(`must be a whole number from 1 to ${MAX_FEED_LIMIT}`)
    .min(1, `must be from 1 to ${MAX_FEED_LIMIT}`)
    .max(MAX_FEED_LIMIT, `must be from 1 to ${MAX_FEED_LIMIT}`)
    .meta({ description: `Most events in one answer (default ${DEFAULT_FEED_LIMIT}).`, default: DEFAULT_FEED_LIMIT })
    .optional(),
  wait: z.coerce
    .number({ error: `must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}` })
    .int(`must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}`)
    .min(0, `must be from 0 to ${MAX_WAIT_SECONDS}`)
    .max(MAX_WAIT_SECONDS, `must be from 0 to ${MAX_WAIT_SECONDS}`)
    .meta({
      description:
        "Long poll: when nothing is newer than `after`, answer as soon as an event is recorded, or after this many seconds with none.",
    })
    .optional(),
});
export type ListFeedInput = z.infer<typeof ListFeedInput>;

export const FeedEvent = z
  .object({
    id: z.uuid(),
    type: z.string(),
    created_at: z.iso.datetime(),
    data: z.object({
      actor: z.object({ id: z.string().nullable(), email: z.string().nullable() }),
      target: z.object({ type: z.string(), id: z.string(), name: z.string().optional() }).nullable(),
      details: z.record(z.string(), z.unknown()),
      source: z
        .object({ type: z.enum(["platform", "api"]), token_id: z.string().nullable(), user_id: z.string().nullable() })
        .nullable()
        .optional(),
    }),
  })
  .meta({ id: "Event", description: "An event as a webhook delivers it; `data` follows its kind's schema (GET /event-types/{name})." });

export const FeedPage = z
  .object({
    results: z.array(FeedEvent),
    next_cursor: z.string().meta({ description: "Pass as `after` to read on; the same cursor always reads on from the same place." }),
  })
  .meta({ id: "EventPage" });
export type FeedPage = z.infer<typeof FeedPage>;

export const EventTypeDescription = z
  .object({
    name: z.string(),
    description: z.string(),
    group: z.enum(EVENT_GROUPS),
    schema: z.record(z.string(), z.unknown()).meta({ description: "JSON Schema 2020-12 of the payload's `data`." }),
    example: z.record(z.string(), z.unknown()).meta({ description: "An example `data`." }),
    deprecated: z.boolean(),
  })
  .meta({ id: "EventType" });
export type EventTypeDescription = z.infer<typeof EventTypeDescription>;

export const EventTypeList = z.object({ results: z.array(EventTypeDescription) }).meta({ id: "EventTypeList" });
export const EventTypeInput = z.object({ name: z.string().max(200) });
