/**
 * The OpenAPI 3.1 `webhooks` section: one entry per kind of the event catalog, the POST a webhook
 * receives, whose body's schema is the kind's (components `Event.<kind>`, from the same zod
 * schemas as GET /event-types). The catalog's `$defs` are inlined: in a component, `#/$defs/…`
 * would point at the document's root.
 */
import { EVENT_CATALOG, exampleDataOf, jsonSchemaOf } from "../events/catalog/index.ts";
import { EVENT_TYPES, type EventType } from "../events/types.ts";

type Json = Record<string, unknown>;

/** Real-looking values for the example payloads: they must meet their own `uuid` and `date-time` formats. */
const EXAMPLE_TENANT_ID = "5d1c7e9a-3b2f-4a6d-8e0c-9f4b2a7d1e63";
const EXAMPLE_CREATED_AT = "2026-01-15T09:30:00.000Z";

function inline(node: unknown, defs: Json): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, defs));
  if (!node || typeof node !== "object") return node;
  const ref = (node as Json).$ref;
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) return inline(defs[ref.slice("#/$defs/".length)], defs);
  return Object.fromEntries(Object.entries(node as Json).map(([key, value]) => [key, inline(value, defs)]));
}

function payloadSchema(kind: EventType): Json {
  const { $schema: _dialect, $defs = {}, ...data } = jsonSchemaOf(kind) as Json & { $defs?: Json };
  return {
    type: "object",
    description: EVENT_CATALOG[kind].description,
    required: ["id", "type", "tenant_id", "created_at", "data"],
    properties: {
      id: { type: "string", format: "uuid", description: "The event's id (also `webhook-id`)." },
      type: { type: "string", const: kind },
      tenant_id: { type: "string", format: "uuid" },
      created_at: { type: "string", format: "date-time" },
      data: inline(data, $defs as Json),
    },
    ...(EVENT_CATALOG[kind].deprecated ? { deprecated: true } : {}),
  };
}

/** The `webhooks` section and the schemas it references, to merge into components.schemas. */
export function webhooksSection(): { webhooks: Json; schemas: Json } {
  const webhooks: Json = {};
  const schemas: Json = {};
  for (const kind of EVENT_TYPES) {
    const id = `Event.${kind}`;
    schemas[id] = payloadSchema(kind);
    webhooks[kind] = {
      post: {
        operationId: `webhook-${kind}`,
        tags: ["Webhooks"],
        summary: kind,
        description: `${EVENT_CATALOG[kind].description} Signed as every delivery is: verify \`webhook-signature\` (Standard Webhooks, recommended); \`X-Webhook-Signature\` is the seed's legacy header. The request carries no token of yours: the signature, made with the endpoint's secret, is what authenticates it.`,
        // Outgoing: this service calls the receiver, which has no scheme of ours to demand.
        security: [],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { $ref: `#/components/schemas/${id}` },
              example: {
                id: "0b8e2f4c-6d1a-4e3b-8c5f-7a9d2e1b3c40",
                type: kind,
                tenant_id: EXAMPLE_TENANT_ID,
                created_at: EXAMPLE_CREATED_AT,
                data: exampleDataOf(kind),
              },
            },
          },
        },
        responses: { "200": { description: "Any 2xx within 5 s is a delivery; anything else is retried." } },
      },
    };
  }
  return { webhooks, schemas };
}
