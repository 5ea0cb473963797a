/**
 * The audit browser's filters as they live in the URL (so a link can be shared and a reload keeps
 * them) and as the audit API takes them.
 *
 *   ?type=user.*,tenant.created  &actor=<actor id or email>  &range=24h | range=custom&from=<ISO>&to=<ISO>
 *   &cursor=<keyset cursor>&skip=<rows before the page>
 */
import { consoleUrl } from "../console/urls";
import type { TablePosition } from "../ui/pagination";
import { positionFrom, setPosition } from "../ui/table-position";

export type RangePreset = "1h" | "24h" | "7d" | "30d";
export type Range = "" | RangePreset | "custom";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const RANGE_OPTIONS: Array<{ value: Range; label: string }> = [
  { value: "", label: "Any time" },
  { value: "1h", label: "Last hour" },
  { value: "24h", label: "Last 24 hours" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "custom", label: "Custom range" },
];

const PRESET_MS: Record<RangePreset, number> = { "1h": HOUR, "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY };

export interface AuditFilters {
  /** Event types as typed: exact kinds, `prefix.*`, comma-separated. */
  type: string;
  /** An actor: an email (anything with an `@`, matched in any case) or an actor id. */
  actor: string;
  range: Range;
  /** ISO 8601 instants of a custom range (start inclusive, end exclusive); passed on as given. */
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { type: "", actor: "", range: "", from: "", to: "" };

/** Where the table is: the page's cursor and how many rows come before it. */
export type AuditPosition = TablePosition;
export { positionFrom };

function isPreset(value: string): value is RangePreset {
  return value in PRESET_MS;
}

export function filtersFrom(params: URLSearchParams): AuditFilters {
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  const rawRange = params.get("range") ?? "";
  const range: Range = isPreset(rawRange) ? rawRange : rawRange === "custom" || from || to ? "custom" : "";
  return {
    type: params.get("type") ?? "",
    actor: params.get("actor") ?? "",
    range,
    from: range === "custom" ? from : "",
    to: range === "custom" ? to : "",
  };
}

/** The query string (without "?") for filters and, past the first page, the position. */
export function searchOf(filters: AuditFilters, position?: AuditPosition): string {
  const params = new URLSearchParams();
  if (filters.type.trim()) params.set("type", filters.type.trim());
  if (filters.actor.trim()) params.set("actor", filters.actor.trim());
  if (filters.range) params.set("range", filters.range);
  if (filters.range === "custom") {
    if (filters.from) params.set("from", filters.from);
    if (filters.to) params.set("to", filters.to);
  }
  setPosition(params, position);
  return params.toString();
}

export function hasFilters(filters: AuditFilters): boolean {
  return Boolean(filters.type.trim() || filters.actor.trim() || filters.range);
}

/** The filter parameters of audit.list and the export, shared by both. */
export interface ApiFilters {
  event_type?: string;
  actor_id?: string;
  actor_email?: string;
  start_date?: string;
  end_date?: string;
}

/**
 * What the API is asked for. A preset is the window up to `anchor` (when the filters were applied
 * or refreshed), so the table and an export cover the same events.
 */
export function apiFiltersOf(filters: AuditFilters, anchor: number): ApiFilters {
  const api: ApiFilters = {};
  const type = filters.type
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .join(",");
  if (type) api.event_type = type;
  const actor = filters.actor.trim();
  if (actor) api[actor.includes("@") ? "actor_email" : "actor_id"] = actor;
  if (isPreset(filters.range)) {
    api.start_date = new Date(anchor - PRESET_MS[filters.range]).toISOString();
    api.end_date = new Date(anchor).toISOString();
  } else if (filters.range === "custom") {
    if (filters.from) api.start_date = filters.from;
    if (filters.to) api.end_date = filters.to;
  }
  return api;
}

/** Rows per page of the audit browser. */
export const AUDIT_PAGE_SIZE = 25;

/** The audit.list input for the page a URL shows: its filters (presets ending at `anchor`) and cursor. */
export function listInputOf(tenantId: string, params: URLSearchParams, anchor: number) {
  const position = positionFrom(params);
  return {
    tenant_id: tenantId,
    page_size: AUDIT_PAGE_SIZE,
    ...apiFiltersOf(filtersFrom(params), anchor),
    ...(position.cursor ? { cursor: position.cursor } : {}),
  };
}

/** The download URL of an export of exactly `api`'s events. */
export function exportUrl(tenantId: string, format: "csv" | "json", api: ApiFilters): string {
  const params = new URLSearchParams({ format });
  for (const [key, value] of Object.entries(api)) if (value) params.set(key, value);
  return consoleUrl.auditExport(tenantId, params);
}

/** The value of a `datetime-local` input showing `iso` in UTC ("" when it is not a date). */
export function utcInputValue(iso: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString().slice(0, 16);
}

/** The ISO instant of a `datetime-local` value read as UTC ("" when empty). */
export function isoOfUtcInput(value: string): string {
  if (!value) return "";
  const date = new Date(`${value}Z`);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/**
 * Suggestions for the comma-separated event type field: the entries typed so far followed by each
 * kind (and `prefix.*`) not yet among them, so a datalist can complete the entry being typed.
 */
export function typeSuggestions(
  value: string,
  kinds: Array<{ event_type: string; count: number }>,
): Array<{ value: string; label: string }> {
  const parts = value.split(",");
  const done = parts
    .slice(0, -1)
    .map((p) => p.trim())
    .filter(Boolean);
  const head = done.length ? `${done.join(", ")}, ` : "";
  const prefixes = new Map<string, number>();
  for (const { event_type, count } of kinds) {
    const prefix = `${event_type.split(".")[0]}.*`;
    prefixes.set(prefix, (prefixes.get(prefix) ?? 0) + count);
  }
  const options = [
    ...kinds.map((k) => ({ kind: k.event_type, label: `${k.count.toLocaleString("en")} events` })),
    ...[...prefixes].map(([kind, count]) => ({ kind, label: `every ${kind.slice(0, -2)} event (${count.toLocaleString("en")})` })),
  ];
  return options.filter((o) => !done.includes(o.kind)).map((o) => ({ value: `${head}${o.kind}`, label: o.label }));
}
