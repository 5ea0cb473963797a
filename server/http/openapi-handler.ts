/**
 * Calls the app router's procedures as REST operations, from their own OpenAPI meta: the same
 * dispatch trpc-to-openapi's handler does (its path matching, query reading, coercion and error
 * codes, through its own helpers), without what it redid per request: the handler, a node-style
 * request and response around the web Request, a caller proxy, the schema coercion and an abort
 * signal. The route table is built once, the coercion done once per operation, and the procedure
 * is called directly (what tRPC's caller does: middlewares, input and output validation run as
 * they do through it). The OpenAPI document is still trpc-to-openapi's (openapi.ts).
 */
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import {
  acceptsRequestBody,
  coerceSchema,
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  unwrapZodType,
  zodSupportsCoerce,
} from "trpc-to-openapi";
import { ZodArray, type ZodObject } from "zod/v4";
import { appRouter } from "../app/router.ts";
import type { Context } from "../trpc/context.ts";

export interface OperationResult {
  status: number;
  /** Content-Type, then what the procedure set on `ctx.response` (names as written). */
  headers: [string, string][];
  body: string;
  error?: TRPCError;
  /** The input the operation was called with (query or body, and path): what a field error is about. */
  input?: unknown;
}

interface Operation {
  /** The procedure's key in the router ("tenants.list"). */
  path: string;
  type: "query" | "mutation";
  call: (opts: { path: string; getRawInput: () => Promise<unknown>; ctx: Context; type: string; batchIndex: number }) => Promise<unknown>;
  pattern: RegExp;
  /** The unwrapped input schema, null when the operation takes none (void). */
  schema: ZodObject | { _zod: unknown } | null;
  /** Query parameters the schema takes as arrays: a single value is wrapped in one. */
  arrays: string[];
  coerced: boolean;
}

/** Per method, per number of path segments: the operations in the router's order (trpc-to-openapi's). */
let table: Map<string, Map<number, Operation[]>> | undefined;
/** Templates whose regex could match a different number of segments (a literal with regex syntax). */
const PLAIN_TEMPLATE = /^[\w\-/{}~]*$/;

const segmentCount = (path: string) => path.split("/").length;

function buildTable(): Map<string, Map<number, Operation[]>> {
  const byMethod = new Map<string, { template: string; operation: Operation }[]>();
  forEachOpenApiProcedure(appRouter._def.procedures as never, ({ path, procedure, meta: { openapi } }) => {
    const proc = procedure as unknown as Operation["call"] & { _def: { type: string } };
    if (proc._def.type === "subscription") return;
    const template = normalizePath(openapi.path);
    const { inputParser } = getInputOutputParsers(procedure as never);
    const unwrapped = unwrapZodType(inputParser as never, true) as Operation["schema"];
    const schema = instanceofZodTypeLikeVoid(unwrapped as never) ? null : unwrapped;
    const arrays = schema && instanceofZodTypeObject(schema as never) ? arrayKeys(schema as ZodObject) : [];
    const operation: Operation = {
      path,
      type: proc._def.type as Operation["type"],
      call: proc,
      pattern: getPathRegExp(template),
      schema,
      arrays,
      coerced: false,
    };
    const list = byMethod.get(openapi.method) ?? [];
    list.push({ template, operation });
    byMethod.set(openapi.method, list);
  });
  const result = new Map<string, Map<number, Operation[]>>();
  for (const [method, list] of byMethod) {
    const counts = new Set(list.filter((e) => PLAIN_TEMPLATE.test(e.template)).map((e) => segmentCount(e.template)));
    const buckets = new Map<number, Operation[]>();
    // A bucket keeps the router's order, and every template that might match that many segments.
    for (const count of counts) {
      buckets.set(
        count,
        list.filter((e) => !PLAIN_TEMPLATE.test(e.template) || segmentCount(e.template) === count).map((e) => e.operation),
      );
    }
    buckets.set(
      -1,
      list.filter((e) => !PLAIN_TEMPLATE.test(e.template)).map((e) => e.operation),
    );
    result.set(method, buckets);
  }
  return result;
}

function arrayKeys(schema: ZodObject): string[] {
  return Object.entries(schema.shape)
    .filter(
      ([, shape]) =>
        shape instanceof ZodArray ||
        (instanceofZodTypeOptional(shape as never) && (shape as { unwrap(): unknown }).unwrap() instanceof ZodArray),
    )
    .map(([key]) => key);
}

/** The operation for `method` at `path` (normalized), and its path parameters. */
function operationFor(method: string, path: string): { operation: Operation; pathInput: Record<string, string> } | undefined {
  table ??= buildTable();
  const buckets = table.get(method);
  if (!buckets) return undefined;
  const candidates = buckets.get(segmentCount(path)) ?? buckets.get(-1)!;
  for (const operation of candidates) {
    const match = operation.pattern.exec(path);
    if (match) return { operation, pathInput: { ...match.groups } };
  }
  return undefined;
}

/** The procedure ("tenants.list") serving `method` at `path` (under /api/v1), as the dispatch finds it. */
export function procedureAt(method: string, path: string): string | undefined {
  return operationFor(method, normalizePath(path))?.operation.path;
}

/** Each query parameter's value, or its values when sent more than once (as trpc-to-openapi reads them). */
function queryOf(url: URL): Record<string, string | string[]> {
  const values: Record<string, string[]> = {};
  url.searchParams.forEach((value, key) => {
    (values[key] ??= []).push(value);
  });
  const query: Record<string, string | string[]> = {};
  for (const [key, list] of Object.entries(values)) query[key] = list.length === 1 ? list[0]! : list;
  return query;
}

function errorOf(cause: unknown): TRPCError {
  if (cause instanceof Error && cause.name === "TRPCError") return cause as TRPCError;
  const error = new TRPCError({
    message: "Internal server error",
    code: "INTERNAL_SERVER_ERROR",
    cause: cause instanceof Error ? cause : undefined,
  });
  if (cause instanceof Error && cause.stack) error.stack = cause.stack;
  return error;
}

const JSON_TYPE: [string, string] = ["Content-Type", "application/json"];

/**
 * Runs the operation `method` `url` (path relative to /api/v1) with the parsed JSON `body`;
 * `contentType`: the request's (null without one).
 */
export async function invokeOperation(
  method: string,
  url: URL,
  contentType: string | null,
  body: unknown,
  ctx: Context,
): Promise<OperationResult> {
  const found = operationFor(method, normalizePath(url.pathname));
  // HEAD has no operations of its own: answered empty (trpc-to-openapi's warm-up answer).
  if (!found && method === "HEAD") return { status: 204, headers: [JSON_TYPE], body: "" };
  let input: unknown;
  try {
    if (!found) throw new TRPCError({ message: "Not found", code: "NOT_FOUND" });
    const { operation, pathInput } = found;
    const useBody = acceptsRequestBody(method as never);
    // Bodiless POSTs (actions) are fine: they count as JSON.
    const type = contentType ?? (body === undefined ? "application/json" : null);
    if (useBody && !type?.startsWith("application/json")) {
      throw new TRPCError({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: type ? `Unsupported content-type "${type}` : "Missing content-type header",
      });
    }
    if (operation.schema) {
      const fields = { ...(useBody ? (body as object) : queryOf(url)), ...pathInput } as Record<string, unknown>;
      if (!useBody)
        for (const key of operation.arrays) if (fields[key] !== undefined && !Array.isArray(fields[key])) fields[key] = [fields[key]];
      input = fields;
      if (!operation.coerced && zodSupportsCoerce && instanceofZodTypeObject(operation.schema as never)) {
        // trpc-to-openapi turns zod's coercion on in place for each call; once is the same.
        coerceSchema(operation.schema as never);
        operation.coerced = true;
      }
    }
    const raw = input;
    const data = await operation.call({
      path: operation.path,
      getRawInput: () => Promise.resolve(raw),
      ctx,
      type: operation.type,
      batchIndex: 0,
    });
    const headers = new Map<string, [string, string]>([["content-type", JSON_TYPE]]);
    for (const [name, value] of Object.entries(ctx.response.headers))
      if (value !== undefined) headers.set(name.toLowerCase(), [name, value]);
    return { status: ctx.response.status ?? 200, headers: [...headers.values()], body: JSON.stringify(data) ?? "" };
  } catch (cause) {
    const error = errorOf(cause);
    // The body is the edge's problem+json (rest.ts), made from the error.
    return { status: getHTTPStatusCodeFromError(error), headers: [JSON_TYPE], body: "", error, input };
  }
}
