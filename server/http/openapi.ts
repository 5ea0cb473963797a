/**
 * The OpenAPI 3.1 document: generated from the routers by trpc-to-openapi, then completed with
 * what it cannot know: problem+json error responses, 201 + Location for creates, the
 * Idempotency-Key header on writes, and X-Request-Id.
 */
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import type { z } from "zod";
import { appRouter } from "../app/router.ts";
import type { Meta } from "../trpc/meta.ts";
import { PROBLEM_TITLES } from "../contract/problem.ts";
import { auditExportPath, auditSearchExportPath } from "../audit/openapi.ts";
import { BROKER_SCHEMAS, BROKER_SECURITY_SCHEMES, brokerPaths } from "../sso/broker/openapi.ts";
import { SCIM_SCHEMAS, SCIM_SECURITY_SCHEMES, scimPaths } from "../directories/scim/openapi.ts";
import { webhooksSection } from "./openapi-webhooks.ts";

type Json = Record<string, unknown>;

const PROBLEM_SCHEMA = {
  type: "object",
  description: "RFC 9457 problem details. `code` is stable and meant for programs; `detail` for people.",
  required: ["type", "title", "status", "detail", "code", "errors", "request_id"],
  properties: {
    type: { type: "string", format: "uri" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    code: { type: "string", enum: Object.keys(PROBLEM_TITLES) },
    errors: {
      type: "array",
      description: "One entry per invalid field (empty when the problem is not about fields).",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
    request_id: { type: "string", description: "Quote it when reporting a problem." },
  },
};

const ERROR_STATUSES: Record<string, string> = {
  "400": "Invalid request (`invalid_request`, `tenant_required`); `errors` names each field",
  "401":
    "Missing or invalid token (`unauthenticated`), or step-up needed (`step_up_required`), or a second factor needed with the password (`mfa_required`)",
  "403": "The caller's role or token scope does not allow this (`forbidden`)",
  "404": "No such resource, or it belongs to another tenant (`not_found`)",
  "409": "Conflict (`conflict`), or the Idempotency-Key is in use (`idempotency_key_in_use`)",
  "413": "Body larger than 1 MiB (`payload_too_large`)",
  "415": "Body not sent as application/json (`unsupported_media_type`)",
  "422": "Idempotency-Key reused with a different request (`idempotency_key_mismatch`)",
  "429": "Too many requests (`rate_limited`); see Retry-After",
  "500": "Unexpected error (`internal`); quote the request id",
  "503": "The database is unreachable (`unavailable`); retry after Retry-After",
};

const BODY_METHODS = ["post", "put", "patch"];

function build(): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: "Control Plane API",
    version: "1.0.0",
    description:
      "Tenants, SSO providers, audit logs and webhooks. Authenticate with `Authorization: Bearer <token>`. " +
      "Errors are RFC 9457 problem+json. Lists paginate with `page`/`page_size` or `cursor`. " +
      "POST, PUT and PATCH accept an `Idempotency-Key` header (replayed for 24 hours).",
    baseUrl: "/api/v1",
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", description: "An API token (cp_…), created in the console or by the CLI." },
    },
  });

  const components = (doc.components ??= {}) as Json;
  components.schemas ??= {};
  // trpc-to-openapi's own error bodies (`error.NOT_FOUND`, …): every error here is a Problem (below).
  for (const name of Object.keys(components.schemas as Json)) if (name.startsWith("error.")) delete (components.schemas as Json)[name];
  (components.schemas as Json).Problem = PROBLEM_SCHEMA;
  const { webhooks, schemas: eventSchemas } = webhooksSection();
  Object.assign(components.schemas as Json, BROKER_SCHEMAS, SCIM_SCHEMAS, eventSchemas);
  doc.webhooks = webhooks as OpenAPIObject["webhooks"];
  components.securitySchemes = {
    ...(components.securitySchemes as Json | undefined),
    ...BROKER_SECURITY_SCHEMES,
    ...SCIM_SECURITY_SCHEMES,
  };
  components.headers = {
    ...(components.headers as Json | undefined),
    "X-Request-Id": { description: "Identifies this request in logs and problem reports.", schema: { type: "string" } },
  };
  components.responses = Object.fromEntries(
    Object.entries(ERROR_STATUSES).map(([status, description]) => [
      `Problem${status}`,
      {
        description,
        headers: { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } },
        content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
      },
    ]),
  );
  components.parameters = {
    ...(components.parameters as Json | undefined),
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "1–255 characters (UUIDs recommended). A repeat within 24 hours replays the first response with `Idempotent-Replayed: true`.",
      schema: { type: "string", minLength: 1, maxLength: 255 },
    },
  };

  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta; inputs?: unknown[] } }>;
  for (const procedure of Object.values(procedures)) {
    const meta = procedure._def.meta;
    if (!meta?.openapi) continue;
    const method = meta.openapi.method.toLowerCase();
    const operation = (doc.paths?.[meta.openapi.path] as Json | undefined)?.[method] as Json | undefined;
    if (!operation) continue;
    describeQueryParameters(operation, procedure._def.inputs?.[0]);
    const responses = operation.responses as Json;
    const success = responses["200"] as Json | undefined;
    for (const status of Object.keys(responses)) if (status !== "200") delete responses[status];
    if (success) {
      delete responses["200"];
      const status = String(meta.successStatus ?? 200);
      const headers: Json = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };
      if (meta.successStatus === 201 && meta.location !== false) {
        headers.Location = { description: "Absolute URL of the created resource.", schema: { type: "string", format: "uri" } };
      }
      if (BODY_METHODS.includes(method)) {
        headers["Idempotent-Replayed"] = {
          description: "`true` when this is a replay of an earlier response.",
          schema: { type: "string", enum: ["true"] },
        };
      }
      responses[status] = meta.successStatus === 204 ? { description: "No content", headers } : { ...success, headers };
      // The generated body is the union of the outcomes: each status gets its own member of it.
      for (const [code, outcome] of Object.entries(meta.outcomes ?? {})) {
        const id = outcome.body.meta()?.id;
        if (!id) throw new Error(`${meta.openapi.path}: the ${code} outcome's schema needs a meta id`);
        responses[code] = {
          description: outcome.description,
          headers: code === status ? headers : Object.fromEntries(Object.entries(headers).filter(([name]) => name !== "Location")),
          content: { "application/json": { schema: { $ref: `#/components/schemas/${id}` } } },
        };
      }
    }
    for (const status of Object.keys(ERROR_STATUSES)) {
      if (!BODY_METHODS.includes(method) && ["413", "415", "422"].includes(status)) continue;
      // A public operation (no `access`, e.g. the audit JWKS) asks for no credentials: no 401/403,
      // unless it reads one when sent (`signedInOptional`).
      if (!meta.access && !meta.signedInOptional && ["401", "403"].includes(status)) continue;
      responses[status] = { $ref: `#/components/responses/Problem${status}` };
    }
    // Anonymous (`{}`), or with a token when it reads one.
    if (!meta.access) operation.security = meta.signedInOptional ? [{}, { bearerAuth: [] }] : [];
    if (BODY_METHODS.includes(method)) {
      operation.parameters = [...((operation.parameters as unknown[]) ?? []), { $ref: "#/components/parameters/IdempotencyKey" }];
    }
  }
  // The Events API's cursor past retention: a problem with the cursor to read on from.
  const feed = (doc.paths?.["/tenants/{tenant_id}/events"] as Json | undefined)?.get as Json | undefined;
  if (feed) {
    (feed.responses as Json)["410"] = {
      description: "The cursor is older than EVENTS_RETENTION_DAYS (`gone`): read on from `oldest_cursor`",
      headers: { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } },
      content: {
        "application/problem+json": {
          schema: {
            allOf: [
              { $ref: "#/components/schemas/Problem" },
              { type: "object", required: ["oldest_cursor"], properties: { oldest_cursor: { type: "string" } } },
            ],
          },
        },
      },
    };
  }
  // Signing a digest when the newest one already covers the log's head answers that one, 200.
  const digest = (doc.paths?.["/tenants/{tenant_id}/audit/digests"] as Json | undefined)?.post as Json | undefined;
  const digestCreated = (digest?.responses as Json | undefined)?.["201"] as Json | undefined;
  if (digestCreated) {
    const headers = Object.fromEntries(Object.entries(digestCreated.headers as Json).filter(([name]) => name !== "Location"));
    (digest!.responses as Json)["200"] = {
      ...digestCreated,
      description: "Nothing was appended since the newest digest: that digest, which already covers the head",
      headers,
    };
  }
  // Served by the REST edge itself (it streams), so written here by hand.
  const paths = (doc.paths ??= {}) as Json;
  const exportProblems = Object.fromEntries(
    Object.keys(ERROR_STATUSES)
      .filter((s) => !["409", "413", "415", "422"].includes(s))
      .map((s) => [s, { $ref: `#/components/responses/Problem${s}` }]),
  );
  paths["/tenants/{tenant_id}/audit/export"] = auditExportPath(exportProblems);
  paths["/audit/export"] = auditSearchExportPath(exportProblems);
  return doc;
}

/**
 * trpc-to-openapi lists an optional query parameter from the schema inside `.optional()`, so the
 * description, default and maximum given outside it (`z.coerce.number().optional().meta({...})`)
 * would be lost: each parameter gets its field's own. (A maximum there is one the server applies
 * by reading larger values as it, as page_size's, rather than by refusing them.)
 */
function describeQueryParameters(operation: Json, input: unknown): void {
  const shape = (input as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  if (!shape) return;
  for (const parameter of (operation.parameters as Json[] | undefined) ?? []) {
    if (parameter.in !== "query" || typeof parameter.name !== "string") continue;
    const { description, default: fallback, maximum } = shape[parameter.name]?.meta() ?? {};
    const schema = (parameter.schema ??= {}) as Json;
    if (typeof description === "string") schema.description ??= description;
    if (fallback !== undefined) schema.default ??= fallback;
    if (typeof maximum === "number") schema.maximum = maximum;
  }
}

let cached: OpenAPIObject | undefined;

/** The document, with `servers` pointing at the given origin. */
export function openApiDocument(origin: string): OpenAPIObject {
  cached ??= build();
  // The OAuth broker's and SCIM's endpoints live outside /api/v1: each path names its own server (the origin).
  return {
    ...cached,
    servers: [{ url: `${origin}/api/v1` }],
    paths: { ...cached.paths, ...(brokerPaths(origin) as OpenAPIObject["paths"]), ...(scimPaths(origin) as OpenAPIObject["paths"]) },
  };
}
