/**
 * The OpenAPI document the app serves (GET /api/v1/openapi.json), typed as far as tests read it,
 * and its operations with their parameters, request body and responses, references resolved.
 */

export type Method = "get" | "post" | "put" | "patch" | "delete";
const METHODS: readonly Method[] = ["get", "post", "put", "patch", "delete"];

export type JsonType = "string" | "integer" | "number" | "boolean" | "null" | "array" | "object";

/** The JSON Schema keywords tests read (OpenAPI 3.1 schemas are JSON Schema). */
export interface JsonSchema {
  $ref?: string;
  type?: JsonType | JsonType[];
  /** OpenAPI 3.0's way to allow null; 3.1 writes `type: [..., "null"]` or `anyOf`. */
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  default?: unknown;
}

export interface Reference {
  $ref: string;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface MediaType {
  schema?: JsonSchema;
}

export interface Header {
  $ref?: string;
  description?: string;
  schema?: JsonSchema;
}

/** A response, or (with only `$ref`) a reference to one of `components.responses`. */
export interface ResponseObject {
  $ref?: string;
  description?: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: (Parameter | Reference)[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
}

/** Operations by method; `servers` when the path is served outside /api/v1 (the OAuth broker). */
export type PathItem = { [M in Method]?: OperationObject } & { servers?: { url: string }[] };

export interface SecurityScheme {
  type: string;
  scheme?: string;
  description?: string;
}

/** A type, not an interface: plain JSON, assignable where a `Record<string, unknown>` is asked for. */
export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    responses: Record<string, ResponseObject>;
    headers: Record<string, Header>;
    securitySchemes: Record<string, SecurityScheme>;
  };
};

/** One operation of the document, ready to call. */
export interface Operation {
  method: Uppercase<Method>;
  /** The path as the document writes it, a template: `/tenants/{tenant_id}`. */
  template: string;
  /** Its parameters, `$ref`s resolved (the Idempotency-Key header of writes among them). */
  parameters: Parameter[];
  /** The schema of its application/json request body (a `$ref` resolved), or null without one. */
  body: JsonSchema | null;
  responses: Record<string, ResponseObject>;
}

/** The document as the app serves it at `apiUrl`. */
export async function fetchOpenApiDocument(apiUrl: string): Promise<OpenApiDocument> {
  const res = await fetch(`${apiUrl}/api/v1/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json: ${res.status} ${await res.text()}`);
  return (await res.json()) as OpenApiDocument;
}

const componentName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

/** The schema itself, following `$ref`s into `components.schemas`. */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const target = doc.components.schemas[componentName(schema.$ref)];
  if (!target) throw new Error(`unresolved schema reference ${schema.$ref}`);
  return resolveSchema(doc, target);
}

function resolveParameter(doc: OpenApiDocument, parameter: Parameter | Reference): Parameter {
  if (!("$ref" in parameter)) return parameter;
  const target = doc.components.parameters[componentName(parameter.$ref)];
  if (!target) throw new Error(`unresolved parameter reference ${parameter.$ref}`);
  return target;
}

const isMethod = (key: string): key is Method => (METHODS as readonly string[]).includes(key);

/**
 * Every operation served under /api/v1, in the document's order: paths that name a server of their
 * own (the OAuth broker's, SCIM's) live elsewhere, with their own credentials and formats.
 */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    item.servers
      ? []
      : Object.keys(item)
          .filter(isMethod)
          .map((method) => {
            const operation = item[method]!;
            const body = operation.requestBody?.content["application/json"]?.schema;
            return {
              method: method.toUpperCase() as Uppercase<Method>,
              template,
              parameters: (operation.parameters ?? []).map((p) => resolveParameter(doc, p)),
              body: body ? resolveSchema(doc, body) : null,
              responses: operation.responses,
            };
          }),
  );
}

/** One operation, by method and path template; throws when the document has no such operation. */
export function operationAt(doc: OpenApiDocument, method: Uppercase<Method>, template: string): Operation {
  const found = operationsOf(doc).find((o) => o.method === method && o.template === template);
  if (!found) throw new Error(`the document has no ${method} ${template}`);
  return found;
}
