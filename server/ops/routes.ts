/**
 * The route template of a request path, for metric labels: `/api/v1/tenants/{tenant_id}/audit`,
 * never the raw path (ids would make a series per resource). REST paths are matched against the
 * OpenAPI document's templates; the other routes are a short fixed list; anything else is
 * `{page}` (console pages) or, under /api, `{unmatched}`.
 */
import { openApiDocument } from "../http/openapi.ts";

const FIXED: [RegExp, string][] = [
  [/^\/api\/v1\/openapi\.json$/, "/api/v1/openapi.json"],
  [/^\/api\/health\/(live|ready)$/, "/api/health/$1"],
  [/^\/api\/metrics$/, "/api/metrics"],
  [/^\/api\/cron(\/webhooks)?$/, "/api/cron$1"],
  [/^\/api\/trpc\/[^/]+$/, "/api/trpc/{procedure}"],
  [/^\/api\/auth\/.+$/, "/api/auth/{action}"],
  [/^\/api\/console\/tenants\/[^/]+\/audit\/export$/, "/api/console/tenants/{tenant_id}/audit/export"],
  [/^\/_next\/.+$/, "/_next/{asset}"],
  [/^\/docs\/assets\/[^/]+$/, "/docs/assets/{file}"],
];

let templates: { pattern: RegExp; template: string }[] | undefined;

function restTemplates() {
  templates ??= Object.keys(openApiDocument("").paths ?? {})
    .map((path) => ({
      pattern: new RegExp(`^/api/v1${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
      template: `/api/v1${path}`,
      params: (path.match(/\{/g) ?? []).length,
    }))
    // `/tokens/me`-style literals win over `/tokens/{token_id}`.
    .sort((a, b) => a.params - b.params)
    .map(({ pattern, template }) => ({ pattern, template }));
  return templates;
}

export function routeOf(path: string): string {
  for (const [pattern, template] of FIXED) if (pattern.test(path)) return path.replace(pattern, template);
  if (path.startsWith("/api/v1/")) return restTemplates().find((t) => t.pattern.test(path))?.template ?? "{unmatched}";
  return path.startsWith("/api/") ? "{unmatched}" : "{page}";
}
