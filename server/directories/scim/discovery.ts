/**
 * Discovery (RFC 7644 §4): what this service provider supports, its resource types and schemas.
 * Every answer names its location under the directory's base URL. The caps of limits.ts are told
 * where RFC 7643 has a place for them (filter.maxResults) and otherwise in the resource types' and
 * attributes' descriptions.
 */
import type { ScimContext } from "./context.ts";
import { scimNotFound } from "./errors.ts";
import { ENTERPRISE_USER, GROUP_SCHEMA, SCIM_SCHEMAS, USER_SCHEMA } from "./schema.ts";
import { MAX_ATTRIBUTE_VALUES, MAX_MEMBERS_PER_REQUEST, MAX_OPERATION_VALUES, MAX_PATCH_OPERATIONS, MAX_RESULTS } from "./limits.ts";
import { listResponse, scimResponse, type Outcome } from "./respond.ts";

/** What a PATCH may carry, as the resource types say it. */
const PATCH_CAPS = `a PATCH has at most ${MAX_PATCH_OPERATIONS} operations of at most ${MAX_OPERATION_VALUES} values each`;

const SPC_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
const RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";

export function serviceProviderConfig(ctx: ScimContext): Outcome {
  return {
    response: scimResponse(200, {
      schemas: [SPC_SCHEMA],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: MAX_RESULTS },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: "oauthbearertoken",
          name: "OAuth Bearer Token",
          description: "The directory's token, sent as Authorization: Bearer <token>",
          specUri: "https://www.rfc-editor.org/rfc/rfc6750",
          primary: true,
        },
      ],
      meta: { resourceType: "ServiceProviderConfig", location: `${ctx.base}/ServiceProviderConfig` },
    }),
  };
}

function resourceTypes(ctx: ScimContext) {
  const meta = (id: string) => ({ resourceType: "ResourceType", location: `${ctx.base}/ResourceTypes/${id}` });
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: "User",
      name: "User",
      endpoint: "/Users",
      description: `User Account (each multi-valued attribute holds at most ${MAX_ATTRIBUTE_VALUES} values; ${PATCH_CAPS})`,
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER, required: false }],
      meta: meta("User"),
    },
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: "Group",
      name: "Group",
      endpoint: "/Groups",
      description: `Group (a POST or PUT names at most ${MAX_MEMBERS_PER_REQUEST} members; ${PATCH_CAPS})`,
      schema: GROUP_SCHEMA,
      meta: meta("Group"),
    },
  ];
}

export function listResourceTypes(ctx: ScimContext): Outcome {
  const all = resourceTypes(ctx);
  return { response: listResponse(all, all.length, 1) };
}

export function getResourceType(ctx: ScimContext, id: string): Outcome {
  const found = resourceTypes(ctx).find((type) => type.id.toLowerCase() === id.toLowerCase());
  if (!found) throw scimNotFound(`Resource type ${id} not found`);
  return { response: scimResponse(200, found) };
}

function schemas(ctx: ScimContext) {
  // Locations absolute, under this directory's base URL.
  return SCIM_SCHEMAS.map((schema) => ({ ...schema, meta: { ...schema.meta, location: `${ctx.base}/Schemas/${schema.id}` } }));
}

export function listSchemas(ctx: ScimContext): Outcome {
  const all = schemas(ctx);
  return { response: listResponse(all, all.length, 1) };
}

export function getSchema(ctx: ScimContext, urn: string): Outcome {
  const found = schemas(ctx).find((schema) => schema.id.toLowerCase() === urn.toLowerCase());
  if (!found) throw scimNotFound(`Schema ${urn} not found`);
  return { response: scimResponse(200, found) };
}
