/**
 * The operations the OpenAPI document lists, indexed for the REST edge: which path segment is
 * which parameter, and which query parameters are integers. The edge uses it to name the field a
 * bad path segment is, and to refuse integers that only JavaScript would read as one.
 */
import { openApiDocument } from "./openapi.ts";
import { PathTrie, templateSegments } from "../ops/path-trie.ts";

interface IndexedOperation {
  segments: string[];
  integers: Set<string>;
}

interface Index {
  byMethod: Map<string, PathTrie<IndexedOperation>>;
  /** For a method no operation has: every operation, those of the first documented method first. */
  any: PathTrie<IndexedOperation>;
}

let index: Index | undefined;

function build(): Index {
  const lists = new Map<string, [string, IndexedOperation][]>();
  for (const [path, item] of Object.entries(openApiDocument("http://localhost").paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      const parameters = (operation as { parameters?: { in?: string; name?: string; schema?: { type?: string } }[] }).parameters ?? [];
      const integers = new Set(parameters.filter((p) => p.in === "query" && p.schema?.type === "integer").map((p) => p.name!));
      const list = lists.get(method.toUpperCase()) ?? [];
      list.push([path, { segments: path.split("/").filter(Boolean), integers }]);
      lists.set(method.toUpperCase(), list);
    }
  }
  const byMethod = new Map<string, PathTrie<IndexedOperation>>();
  const any = new PathTrie<IndexedOperation>();
  for (const [method, list] of lists) {
    const operations = new PathTrie<IndexedOperation>();
    for (const [path, operation] of list) {
      operations.add(templateSegments(path), operation);
      any.add(templateSegments(path), operation);
    }
    byMethod.set(method, operations);
  }
  return { byMethod, any };
}

/** The documented operation at `segments` (raw, percent-encoded) for `method`, if any. */
export function operationAt(method: string, segments: string[]): IndexedOperation | undefined {
  index ??= build();
  // Literal segments outrank parameters (".../audit/verify" over ".../audit/{event_id}"): path-trie.ts.
  return (index.byMethod.get(method) ?? index.any).match(segments);
}

/** The path parameter name at each segment ("tenant_id"), or null for literal segments. */
export function parameterNames(method: string, segments: string[]): (string | null)[] {
  const op = operationAt(method, segments);
  return segments.map((_, i) => (op?.segments[i]?.startsWith("{") ? op.segments[i]!.slice(1, -1) : null));
}
