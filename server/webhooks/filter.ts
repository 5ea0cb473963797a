/**
 * A webhook's content filter: a CEL expression (Common Expression Language, the language Svix's
 * open request and Google's APIs use) over the delivered payload, evaluated with
 * @marcbachmann/cel-js. CEL cannot loop without bound, call out or run code; the expression's size
 * is capped (characters, AST nodes, depth, literal sizes), and evaluation runs over a payload we
 * built ourselves (at most two list macros), so a filter's cost is bounded by the payload's size.
 *
 * Variables: `id`, `tenant_id`, `created_at` (strings), `data` (the payload's `data`), and `event`
 * (the whole payload). The event's kind is `event.type`: `type` alone is CEL's own type() function.
 * A filter that fails on an event (a key the event lacks, a non-boolean result) does not match it,
 * and is counted (webhook_filter_errors_total): `has(data.details.role) && data.details.role == "admin"`
 * guards a key that may be missing.
 */
import { Environment } from "@marcbachmann/cel-js";
import { InvalidField } from "../errors.ts";

export const MAX_FILTER_LENGTH = 1000;
const MAX_COMPILED = 1000;

const environment = new Environment({
  homogeneousAggregateLiterals: false,
  limits: { maxAstNodes: 300, maxDepth: 24, maxListElements: 200, maxMapEntries: 50, maxCallArguments: 8 },
})
  .registerVariable("id", "string")
  .registerVariable("tenant_id", "string")
  .registerVariable("created_at", "string")
  .registerVariable("data", "map")
  .registerVariable("event", "map");

/** The payload as the filter sees it: the delivered JSON, parsed. */
export interface FilterPayload {
  id: string;
  type: string;
  tenant_id: string;
  created_at: string;
  data: Record<string, unknown>;
}

type Compiled = (context: Record<string, unknown>) => unknown;

// Each comprehension (`list.map(x, …)`) walks a list of the payload; two nested ones square it.
const COMPREHENSION = /\.\s*(all|exists|exists_one|map|filter)\s*\(/g;
const MAX_COMPREHENSIONS = 2;

const firstLine = (message: string) => message.split("\n")[0]!.trim();
const BARE_TYPE = /(^|[^.\w])type\b(?!\s*\()/;

/**
 * Why `text` is not a usable filter (syntax, an unknown variable, a result that cannot be a
 * boolean, too long), or null when it is one.
 */
export function filterProblem(text: string): string | null {
  if (text.length > MAX_FILTER_LENGTH) return `must be at most ${MAX_FILTER_LENGTH} characters`;
  if (!text.trim()) return "must be a CEL expression, or null for none";
  if ((text.match(COMPREHENSION)?.length ?? 0) > MAX_COMPREHENSIONS)
    return `may use at most ${MAX_COMPREHENSIONS} list macros (all, exists, exists_one, map, filter)`;
  let checked: ReturnType<Environment["check"]>;
  try {
    checked = environment.check(text);
  } catch (error) {
    return `is not a valid CEL expression: ${firstLine((error as Error).message)}`;
  }
  if (!checked.valid) {
    const hint = BARE_TYPE.test(text) ? " (the event's kind is event.type: type is CEL's own type())" : "";
    return `is not a valid CEL expression: ${firstLine(checked.error?.message ?? "invalid")}${hint}`;
  }
  if (checked.type !== "bool" && checked.type !== "dyn") return `must give a boolean (this one gives ${checked.type})`;
  return null;
}

/** 400 naming `filter` when a filter given on save is not usable (null and absent are fine). */
export function assertFilter(text: string | null | undefined): void {
  if (text == null) return;
  const problem = filterProblem(text);
  if (problem) throw InvalidField("filter", problem);
}

// Compiled once per process per text: the outbox evaluates the same few filters on every event.
const compiled = new Map<string, Compiled | null>();

function compile(text: string): Compiled | null {
  let hit = compiled.get(text);
  if (hit === undefined) {
    try {
      hit = filterProblem(text) === null ? (environment.parse(text) as Compiled) : null;
    } catch {
      hit = null;
    }
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(text, hit);
  }
  return hit;
}

export type FilterOutcome = { matches: boolean; error: string | null };

/** Whether `payload` passes `filter`. Never throws: an error is an outcome that does not match. */
export function evaluateFilter(filter: string, payload: FilterPayload): FilterOutcome {
  const run = compile(filter);
  if (!run) return { matches: false, error: "the filter does not compile" };
  try {
    const value = run({ id: payload.id, tenant_id: payload.tenant_id, created_at: payload.created_at, data: payload.data, event: payload });
    if (typeof value !== "boolean")
      return { matches: false, error: `the filter gave ${value === null ? "null" : typeof value}, not a boolean` };
    return { matches: value, error: null };
  } catch (error) {
    return { matches: false, error: firstLine(error instanceof Error ? error.message : String(error)) };
  }
}
