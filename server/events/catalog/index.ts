/**
 * The event catalog: every kind the control plane emits, with its description, group, the zod
 * schema of its `details` and an example. One source: emitEvent's `details` are typed from these
 * schemas (server/events/emit.ts), `GET /event-types` and the OpenAPI document's `webhooks` serve
 * their JSON Schemas, and under test every emitted payload is validated against them
 * (server/events/validate.ts). Pure zod: the console imports it too.
 */
import { z } from "zod";
import type { EventType } from "../types.ts";
import { dataSchema, EXAMPLE_ACTOR, EXAMPLE_ID, type CatalogEntry } from "./define.ts";
import { directoryKinds } from "./directories.ts";
import { identityKinds } from "./identity.ts";
import { logStreamKinds } from "./log-streams.ts";
import { noticeKinds } from "./notices.ts";
import { resourceKinds } from "./resources.ts";
import { ssoKinds } from "./sso.ts";

export { EVENT_GROUPS, type EventGroup, type CatalogEntry } from "./define.ts";

const kinds = { ...identityKinds, ...ssoKinds, ...resourceKinds, ...noticeKinds, ...directoryKinds, ...logStreamKinds };

/** Every kind of EVENT_TYPES, and no other (checked by tsc both ways). */
export const EVENT_CATALOG: { readonly [K in EventType]: (typeof kinds)[K] } = kinds satisfies Record<EventType, CatalogEntry>;

/** What an emitter of `K` may put in `details` (the schema's input type). */
export type EventDetails<K extends EventType> = z.input<(typeof EVENT_CATALOG)[K]["details"]>;

/** The schema of a delivered payload's `data` for `kind`. */
export function dataSchemaOf(kind: EventType) {
  return dataSchema(EVENT_CATALOG[kind].details);
}

/** The `data` of a delivered payload of `kind` as its example shows it. */
export function exampleDataOf(kind: EventType) {
  const entry: CatalogEntry = EVENT_CATALOG[kind];
  return {
    actor: EXAMPLE_ACTOR,
    target: entry.target ? { type: entry.target, id: EXAMPLE_ID, name: null } : null,
    details: entry.example,
    source: { type: "platform" as const, token_id: null, user_id: null },
  };
}

/** JSON Schema 2020-12 of a kind's payload `data` (inputs as written: optional fields stay optional). */
export function jsonSchemaOf(kind: EventType): Record<string, unknown> {
  return z.toJSONSchema(dataSchemaOf(kind), { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
