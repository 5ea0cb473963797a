/**
 * The pieces every kind of the event catalog is built from: the entry's shape, the fields many
 * kinds share (a PATCH's `changes`), and the common envelope of a delivered payload's `data`
 * (`{actor, target, details, source?}`, server/events/payload.ts payloadOf). Pure zod.
 */
import { z } from "zod";

export const EVENT_GROUPS = [
  "tenant",
  "user",
  "invitation",
  "sso",
  "webhook",
  "log_stream",
  "domain",
  "setup_link",
  "directory",
  "api_token",
  "audit",
] as const;
export type EventGroup = (typeof EVENT_GROUPS)[number];

/**
 * A kind's details: the fields its emitters always or sometimes write, typed; others are allowed
 * (a setup link's holder adds `setup_link`, and a kind may gain fields without breaking readers).
 */
export const details = <Shape extends z.ZodRawShape>(shape: Shape) => z.looseObject(shape);

export const iso = () => z.iso.datetime();

/** What a PATCH changed: each field's value before and after. */
export const Changes = z
  .record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }))
  .meta({ description: "Each field the change touched, with its value before (`from`) and after (`to`)." });

export interface CatalogEntry<Details extends z.ZodType = z.ZodType> {
  group: EventGroup;
  description: string;
  /** The `target.type` the kind's events name, or null when they name none. */
  target: string | null;
  details: Details;
  /** A realistic `details`, valid against the schema (a test checks every one). */
  example: z.input<Details>;
  deprecated?: boolean;
}

/** Declares one kind (the identity function, typed so the example is checked against the schema). */
export const kind = <Details extends z.ZodType>(entry: CatalogEntry<Details>): CatalogEntry<Details> => entry;

const Actor = z
  .object({
    id: z.string().nullable().meta({ description: "The user (or `setup_link:<id>`) who did it; null: the system or no one known." }),
    email: z.string().nullable(),
  })
  .meta({ description: "Who did it." });

const Target = z
  .object({
    type: z.string(),
    id: z.string(),
    name: z.string().nullable().optional().meta({ description: "What the target was called when the event was written." }),
  })
  .nullable()
  .meta({ description: "What the event is about." });

const Source = z
  .object({
    type: z.enum(["platform", "api"]),
    token_id: z.string().nullable(),
    user_id: z.string().nullable(),
  })
  .nullable()
  .meta({ description: "Who wrote the event: the control plane (`platform`) or an application through the API (`api`)." });

/** A delivered payload's `data` for a kind whose details are `detailsSchema`. */
export function dataSchema(detailsSchema: z.ZodType) {
  return z.object({ actor: Actor, target: Target, details: detailsSchema, source: Source.optional() });
}

export const EXAMPLE_ACTOR = { id: "5f0c8c1e-3b7a-4d2e-9a61-0c2f4b8e7d10", email: "ada@example.com" };
export const EXAMPLE_ID = "0b8e2f4c-6d1a-4e3b-8c5f-7a9d2e1b3c40";
