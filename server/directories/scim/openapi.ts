/**
 * The OpenAPI description of the SCIM 2.0 endpoint (RFC 7643/7644), which lives outside /api/v1
 * (`/api/scim/v2/{directory_id}/…`, the directory's own bearer token, SCIM's media type and error
 * format): written by hand, each path carrying its own server (the origin), as the broker's do.
 * The resources are described by their core attributes; the `/Schemas` endpoint is the full
 * reference, and attributes this service does not know are kept as sent.
 */
import { MAX_ATTRIBUTE_VALUES, MAX_MEMBERS_PER_REQUEST, MAX_OPERATION_VALUES, MAX_PATCH_OPERATIONS, MAX_RESULTS } from "./limits.ts";

type Json = Record<string, unknown>;

const SCIM_JSON = "application/scim+json";
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (schema: Json) => ({ [SCIM_JSON]: { schema }, "application/json": { schema } });
const str = (description: string, extra: Json = {}): Json => ({ type: "string", description, ...extra });

const META: Json = {
  type: "object",
  readOnly: true,
  properties: {
    resourceType: { type: "string", enum: ["User", "Group"] },
    created: { type: "string", format: "date-time" },
    lastModified: { type: "string", format: "date-time" },
    location: { type: "string", format: "uri" },
    version: str('Weak ETag (`W/"n"`); send it as `If-Match` to guard a write.'),
  },
};

/** A value of a multi-valued attribute (RFC 7643 §2.4). */
const VALUE: Json = {
  type: "object",
  properties: { value: { type: "string" }, type: { type: "string" }, primary: { type: "boolean" }, display: { type: "string" } },
};

const MULTI_VALUED: Json = {
  type: "array",
  maxItems: MAX_ATTRIBUTE_VALUES,
  description: `At most ${MAX_ATTRIBUTE_VALUES} values (so any list in a resource); more: 400 tooMany.`,
  items: VALUE,
};

export const SCIM_SCHEMAS: Json = {
  ScimUser: {
    type: "object",
    description: "A SCIM User (RFC 7643 §4.1) with the enterprise extension; GET /Schemas lists every attribute.",
    required: ["schemas", "userName"],
    additionalProperties: true,
    properties: {
      schemas: { type: "array", items: { type: "string" } },
      id: { type: "string", format: "uuid", readOnly: true },
      externalId: str("The IdP's own id of the person."),
      userName: str("Unique in the directory, any case (409 `uniqueness` otherwise)."),
      name: {
        type: "object",
        properties: { givenName: { type: "string" }, familyName: { type: "string" }, formatted: { type: "string" } },
      },
      displayName: { type: "string" },
      title: { type: "string" },
      active: { type: "boolean", description: "`false` deprovisions the person at once (see docs/directory-sync.md)." },
      emails: MULTI_VALUED,
      phoneNumbers: MULTI_VALUED,
      groups: { type: "array", items: VALUE, readOnly: true },
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
        type: "object",
        additionalProperties: true,
        properties: { department: { type: "string" }, employeeNumber: { type: "string" }, manager: { type: "object" } },
      },
      meta: META,
    },
  },
  ScimGroup: {
    type: "object",
    description: "A SCIM Group (RFC 7643 §4.2).",
    required: ["schemas", "displayName"],
    additionalProperties: true,
    properties: {
      schemas: { type: "array", items: { type: "string" } },
      id: { type: "string", format: "uuid", readOnly: true },
      externalId: { type: "string" },
      displayName: str("The name role mappings match (any case), or match by `externalId`."),
      members: {
        ...MULTI_VALUED,
        maxItems: MAX_MEMBERS_PER_REQUEST,
        description: `At most ${MAX_MEMBERS_PER_REQUEST} in a POST or PUT (more: 400 tooMany); a group grows past it by PATCH, ${MAX_OPERATION_VALUES} per operation.`,
      },
      meta: META,
    },
  },
  ScimListResponse: {
    type: "object",
    required: ["schemas", "totalResults", "Resources", "startIndex", "itemsPerPage"],
    properties: {
      schemas: { type: "array", items: { type: "string", enum: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"] } },
      totalResults: { type: "integer" },
      startIndex: { type: "integer" },
      itemsPerPage: { type: "integer" },
      Resources: { type: "array", items: { type: "object", additionalProperties: true } },
    },
  },
  ScimPatchOp: {
    type: "object",
    description: `RFC 7644 §3.5.2, as Okta and Entra ID send it: ops in any case, path-less values, filtered paths (\`emails[type eq "work"].value\`, \`members[value eq "…"]\`), enterprise-extension paths, \`"True"\`/\`"False"\` strings for booleans. At most ${MAX_PATCH_OPERATIONS} operations, each carrying at most ${MAX_OPERATION_VALUES} values (the elements of the lists in its \`value\`, such as members to add or remove); more: 400 tooMany.`,
    required: ["schemas", "Operations"],
    properties: {
      schemas: { type: "array", items: { type: "string", enum: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"] } },
      Operations: {
        type: "array",
        maxItems: MAX_PATCH_OPERATIONS,
        items: {
          type: "object",
          required: ["op"],
          properties: { op: str("add, remove or replace (any case)."), path: { type: "string" }, value: {} },
        },
      },
    },
  },
  ScimError: {
    type: "object",
    description: "RFC 7644 §3.12.",
    required: ["schemas", "status"],
    properties: {
      schemas: { type: "array", items: { type: "string", enum: ["urn:ietf:params:scim:api:messages:2.0:Error"] } },
      status: str("The HTTP status, as a string."),
      scimType: str("invalidFilter, invalidSyntax, invalidPath, invalidValue, uniqueness, mutability, tooMany…"),
      detail: { type: "string" },
    },
  },
};

export const SCIM_SECURITY_SCHEMES: Json = {
  scimDirectoryToken: {
    type: "http",
    scheme: "bearer",
    description:
      "A directory's SCIM token (`scim_…`), shown once when the directory is made or its token rotated; it opens that directory only.",
  },
};

const ERRORS: Json = Object.fromEntries(
  [
    [
      "400",
      "Bad request (scimType names why: invalidFilter, invalidSyntax, invalidPath, invalidValue…; tooMany past a cap on operations or values).",
    ],
    ["401", "No valid token for this directory, or the directory is disabled."],
    ["404", "No such resource in this directory."],
    ["409", "userName (or a group's displayName) already taken in the directory: scimType uniqueness."],
    ["412", "If-Match does not match the resource's version."],
    ["413", "Body over 1 MiB."],
    ["429", "Past RATE_LIMIT_PER_DIRECTORY; Retry-After says when."],
  ].map(([status, description]) => [status, { description, content: { [SCIM_JSON]: { schema: ref("ScimError") } } }]),
);

const ok = (description: string, schema: Json | null) => (schema ? { description, content: { [SCIM_JSON]: { schema } } } : { description });

const DIRECTORY_ID = { name: "directory_id", in: "path", required: true, schema: { type: "string", format: "uuid" } };
const RESOURCE_ID = { name: "id", in: "path", required: true, schema: { type: "string" } };
const PROJECTION = [
  {
    name: "attributes",
    in: "query",
    schema: { type: "string" },
    description: "Comma-separated attributes to return (plus those always returned).",
  },
  { name: "excludedAttributes", in: "query", schema: { type: "string" }, description: "Comma-separated attributes to leave out." },
];
const LIST = [
  {
    name: "filter",
    in: "query",
    schema: { type: "string" },
    description:
      'RFC 7644 §3.4.2.2: eq ne co sw ew pr gt ge lt le, and/or/not, parentheses, value filters (`emails[type eq "work" and value eq "…"]`); dates from year 1 to +275760. A bad filter: 400 invalidFilter.',
  },
  {
    name: "startIndex",
    in: "query",
    schema: { type: "integer", default: 1 },
    description: "1-based; less than 1 reads as 1 (RFC 7644 §3.4.2.4). Past ±2^53 − 1: 400 invalidValue.",
  },
  {
    name: "count",
    in: "query",
    schema: { type: "integer", default: 100 },
    description: `Resources per page; below 0 reads as 0, above ${MAX_RESULTS} as ${MAX_RESULTS} (RFC 7644 §3.4.2.4). Past ±2^53 − 1: 400 invalidValue.`,
  },
  ...PROJECTION,
];

function resourcePaths(kind: "Users" | "Groups", schema: string): [string, Json][] {
  const one = kind === "Users" ? "user" : "group";
  const id = (verb: string) => `scim-${verb}${kind === "Users" ? "User" : "Group"}`;
  const errors = (...codes: string[]) => Object.fromEntries(codes.map((code) => [code, ERRORS[code]]));
  return [
    [
      `/api/scim/v2/{directory_id}/${kind}`,
      {
        parameters: [DIRECTORY_ID],
        get: {
          operationId: `scim-list${kind}`,
          summary: `List or find ${kind.toLowerCase()}`,
          parameters: LIST,
          responses: { 200: ok("A page of resources", ref("ScimListResponse")), ...errors("400", "401", "429") },
        },
        post: {
          operationId: id("create"),
          summary: `Create a ${one}`,
          requestBody: { required: true, content: body(ref(schema)) },
          responses: { 201: ok(`The ${one}, with Location and ETag`, ref(schema)), ...errors("400", "401", "409", "413", "429") },
        },
      },
    ],
    [
      `/api/scim/v2/{directory_id}/${kind}/{id}`,
      {
        parameters: [DIRECTORY_ID, RESOURCE_ID],
        get: {
          operationId: id("get"),
          summary: `Get a ${one}`,
          parameters: PROJECTION,
          responses: { 200: ok(`The ${one}`, ref(schema)), ...errors("401", "404", "429") },
        },
        put: {
          operationId: id("replace"),
          summary: `Replace a ${one}`,
          requestBody: { required: true, content: body(ref(schema)) },
          responses: { 200: ok(`The ${one}`, ref(schema)), ...errors("400", "401", "404", "409", "412", "413", "429") },
        },
        patch: {
          operationId: id("patch"),
          summary: `Change a ${one}`,
          description: "200 with the resource; 204 without a body for an `entra_id` directory (what Entra ID expects).",
          requestBody: { required: true, content: body(ref("ScimPatchOp")) },
          responses: {
            200: ok(`The ${one}`, ref(schema)),
            204: ok("Changed (entra_id directories)", null),
            ...errors("400", "401", "404", "409", "412", "413", "429"),
          },
        },
        delete: {
          operationId: id("delete"),
          summary: `Delete a ${one}`,
          description: kind === "Users" ? "Deprovisions the person first (see docs/directory-sync.md)." : undefined,
          responses: { 204: ok("Deleted", null), ...errors("401", "404", "412", "429") },
        },
      },
    ],
  ];
}

const discovery = (path: string, summary: string): [string, Json] => [
  `/api/scim/v2/{directory_id}/${path}`,
  {
    parameters: [DIRECTORY_ID],
    get: {
      operationId: `scim-${path[0]!.toLowerCase()}${path.slice(1)}`,
      summary,
      responses: { 200: ok(summary, { type: "object", additionalProperties: true }), 401: ERRORS["401"] },
    },
  },
];

/** The SCIM paths, each on the origin's server and the directory token's security. */
export function scimPaths(origin: string): Json {
  const servers = [{ url: origin }];
  const security = [{ scimDirectoryToken: [] }];
  const entries = [
    discovery("ServiceProviderConfig", "What this service provider supports (patch and filter, not bulk)"),
    discovery("ResourceTypes", "The resource types: User and Group"),
    discovery("Schemas", "The schemas: core User, Group, the enterprise User extension"),
    ...resourcePaths("Users", "ScimUser"),
    ...resourcePaths("Groups", "ScimGroup"),
  ];
  return Object.fromEntries(
    entries.map(([path, item]) => {
      const withSecurity = Object.fromEntries(
        Object.entries(item).map(([key, value]) =>
          key === "parameters" ? [key, value] : [key, { tags: ["SCIM (Directory Sync)"], security, ...(value as Json) }],
        ),
      );
      return [path, { servers, ...withSecurity }];
    }),
  );
}
