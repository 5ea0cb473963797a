/**
 * The platform audit search's filters as they live in the URL and as GET /audit (audit.search)
 * and its export take them:
 *
 *   /audit?actor=<email or actor id>&target_id=&target_type=&type=<kinds>&from=<ISO>&to=<ISO>&cursor=&skip=
 */
import { consoleUrl } from "../console/urls";
import type { TablePosition } from "../ui/pagination";
import { setPosition } from "../ui/table-position";

export interface SearchFilters {
  /** An email (anything with an `@`, matched in any case) or an actor id. */
  actor: string;
  targetId: string;
  targetType: string;
  /** Event types as typed: exact kinds, `prefix.*`, comma-separated. */
  type: string;
  /** ISO 8601 instants (start inclusive, end exclusive), as given. */
  from: string;
  to: string;
}

export const NO_SEARCH: SearchFilters = { actor: "", targetId: "", targetType: "", type: "", from: "", to: "" };

export const SEARCH_PAGE_SIZE = 25;

const URL_NAMES: Record<keyof SearchFilters, string> = {
  actor: "actor",
  targetId: "target_id",
  targetType: "target_type",
  type: "type",
  from: "from",
  to: "to",
};

export function searchFiltersFrom(params: URLSearchParams): SearchFilters {
  const out = { ...NO_SEARCH };
  for (const key of Object.keys(URL_NAMES) as Array<keyof SearchFilters>) out[key] = params.get(URL_NAMES[key])?.trim() ?? "";
  return out;
}

/** The query string (without "?") of these filters and, past the first page, the position. */
export function searchQueryOf(filters: SearchFilters, position?: TablePosition): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(URL_NAMES) as Array<keyof SearchFilters>) {
    const value = filters[key].trim();
    if (value) params.set(URL_NAMES[key], value);
  }
  setPosition(params, position);
  return params.toString();
}

/** What the API is asked for (only the filters given). */
export interface SearchApiFilters {
  actor_email?: string;
  actor_id?: string;
  target_id?: string;
  target_type?: string;
  event_type?: string;
  start_date?: string;
  end_date?: string;
}

export function searchApiFiltersOf(filters: SearchFilters): SearchApiFilters {
  const api: SearchApiFilters = {};
  const actor = filters.actor.trim();
  if (actor) api[actor.includes("@") ? "actor_email" : "actor_id"] = actor;
  if (filters.targetId.trim()) api.target_id = filters.targetId.trim();
  if (filters.targetType.trim()) api.target_type = filters.targetType.trim();
  const type = filters.type
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .join(",");
  if (type) api.event_type = type;
  if (filters.from) api.start_date = filters.from;
  if (filters.to) api.end_date = filters.to;
  return api;
}

/** Whether the search may run: it needs an actor, a target id or an event type (each indexed across tenants). */
export function canSearch(filters: SearchFilters): boolean {
  return Boolean(filters.actor.trim() || filters.targetId.trim() || filters.type.trim());
}

/** The download URL of an export of exactly these filters' events. */
export function searchExportUrl(format: "csv" | "json", api: SearchApiFilters): string {
  const params = new URLSearchParams({ format });
  for (const [key, value] of Object.entries(api)) if (value) params.set(key, value);
  return consoleUrl.auditSearchExport(params);
}
