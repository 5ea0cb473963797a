/**
 * The operations the OpenAPI document lists, indexed for the REST edge: which path segment is
 * which parameter, and which query parameters are integers. The edge uses it to name the field a
 * bad path segment is, and to refuse integers that only JavaScript would read as one.
 */
import { openApiDocument } from "./openapi.ts";

interface IndexedOperation {
  segments: string[];
  integers: Set<string>;
}

let index: Map<string, IndexedOperation[]> | undefined;

function build(): Map<string, IndexedOperation[]> {
  const byMethod = new Map<string, IndexedOperation[]>();
  for (const [path, item] of Object.entries(openApiDocument("http://localhost").paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      const parameters = (operation as { parameters?: { in?: string; name?: string; schema?: { type?: string } }[] }).parameters ?? [];
      const integers = new Set(parameters.filter((p) => p.in === "query" && p.schema?.type === "integer").map((p) => p.name!));
      const list = byMethod.get(method.toUpperCase()) ?? [];
      list.push({ segments: path.split("/").filter(Boolean), integers });
      byMethod.set(method.toUpperCase(), list);
    }
  }
  return byMethod;
}

/** The documented operation at `segments` (raw, percent-encoded) for `method`, if any. */
export function operationAt(method: string, segments: string[]): IndexedOperation | undefined {
  index ??= build();
  const matches = (op: IndexedOperation) =>
    op.segments.length === segments.length && op.segments.every((part, i) => part.startsWith("{") || part === segments[i]);
  // Literal segments outrank parameters (".../audit/verify" over ".../audit/{event_id}").
  const candidates = (index.get(method) ?? [...index.values()].flat()).filter(matches);
  const literals = (op: IndexedOperation) => op.segments.filter((part) => !part.startsWith("{")).length;
  return candidates.sort((a, b) => literals(b) - literals(a))[0];
}

/** The path parameter name at each segment ("tenant_id"), or null for literal segments. */
export function parameterNames(method: string, segments: string[]): (string | null)[] {
  const op = operationAt(method, segments);
  return segments.map((_, i) => (op?.segments[i]?.startsWith("{") ? op.segments[i]!.slice(1, -1) : null));
}
