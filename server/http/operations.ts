/**
 * The operations the OpenAPI document lists, indexed for the REST edge: which path segment is
 * which parameter, which query parameters an operation takes and which of them are integers, and
 * which methods a path has. The edge uses it to name the field a bad path segment is, to refuse
 * integers that only JavaScript would read as one, query parameters no operation reads, and a
 * method a path does not have (route.ts).
 */
import { openApiDocument } from "./openapi.ts";
import { PathTrie, templateSegments } from "../contract/path-trie.ts";

export interface IndexedOperation {
  method: string;
  /** As documented: "/tenants/{tenant_id}/audit". */
  template: string;
  segments: string[];
  /** Every query parameter it takes, in the document's order. */
  query: string[];
  integers: Set<string>;
}

/** A documented path and its operations by method (upper case). */
interface Route {
  template: string;
  operations: Map<string, IndexedOperation>;
}

interface DocumentedParameter {
  in?: string;
  name?: string;
  schema?: { type?: string };
}

let index: PathTrie<Route> | undefined;

function build(): PathTrie<Route> {
  const routes = new PathTrie<Route>();
  for (const [template, item] of Object.entries(openApiDocument("http://localhost").paths ?? {})) {
    // Paths with their own `servers` (the OAuth broker's) are not served under /api/v1.
    if (!item || "servers" in item) continue;
    const operations = new Map<string, IndexedOperation>();
    for (const [method, operation] of Object.entries(item)) {
      const parameters = ((operation as { parameters?: DocumentedParameter[] }).parameters ?? []).filter((p) => p.in === "query");
      operations.set(method.toUpperCase(), {
        method: method.toUpperCase(),
        template,
        segments: template.split("/").filter(Boolean),
        query: parameters.map((p) => p.name!),
        integers: new Set(parameters.filter((p) => p.schema?.type === "integer").map((p) => p.name!)),
      });
    }
    routes.add(templateSegments(template), { template, operations });
  }
  return routes;
}

/**
 * The documented path at `segments` (raw, percent-encoded), whatever the method: the path is
 * matched first, so `PATCH /sso/applications` is that path's 405, not a provider named "applications".
 * Literal segments outrank parameters (".../audit/verify" over ".../audit/{event_id}"): server/contract/path-trie.ts.
 */
function routeAt(segments: string[]): Route | undefined {
  index ??= build();
  return index.match(segments);
}

/** HEAD asks what GET would answer (the adapter answers it without a body). */
const lookupMethod = (method: string) => (method === "HEAD" ? "GET" : method);

/** The operation at `segments` for `method`, or (to name its path parameters) another of that path. */
export function operationAt(method: string, segments: string[]): IndexedOperation | undefined {
  const route = routeAt(segments);
  return route && (route.operations.get(lookupMethod(method)) ?? route.operations.values().next().value);
}

/** The operation `method` has at `segments`, or undefined: no fallback to another method's. */
export function exactOperationAt(method: string, segments: string[]): IndexedOperation | undefined {
  return routeAt(segments)?.operations.get(lookupMethod(method));
}

/** The methods of the path at `segments` (HEAD beside GET), for a 405's `Allow`; [] for an unknown path. */
export function methodsAt(segments: string[]): string[] {
  const methods = [...(routeAt(segments)?.operations.keys() ?? [])];
  return methods.includes("GET") ? [...methods, "HEAD"] : methods;
}

/** The path parameter name at each segment ("tenant_id"), or null for literal segments. */
export function parameterNames(method: string, segments: string[]): (string | null)[] {
  const op = operationAt(method, segments);
  return segments.map((_, i) => (op?.segments[i]?.startsWith("{") ? op.segments[i]!.slice(1, -1) : null));
}
