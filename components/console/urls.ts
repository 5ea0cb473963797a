/**
 * The console's own paths, built in one place: components link and navigate with these instead
 * of writing "/tenants/…" by hand, so a page that moves changes here only.
 */

const tenant = (tenantId: string) => `/tenants/${tenantId}`;
const webhook = (tenantId: string, webhookId: string) => `${tenant(tenantId)}/webhooks/${webhookId}`;
const logStream = (tenantId: string, streamId: string) => `${tenant(tenantId)}/log-streams/${streamId}`;
const directory = (tenantId: string, directoryId: string) => `${tenant(tenantId)}/directories/${directoryId}`;

/** `path?query`, or `path` alone when the query is empty. */
function withQuery(path: string, query: URLSearchParams | string | undefined): string {
  const search = query === undefined ? "" : String(query);
  return search ? `${path}?${search}` : path;
}

/** `?tenant=…` on account pages: the tenant selected before, kept while away from its pages. */
const keeping = (path: string, tenantId?: string | null) => (tenantId ? withQuery(path, new URLSearchParams({ tenant: tenantId })) : path);

export const consoleUrl = {
  /** The tenants list, optionally filtered by `search` (kept in the URL). */
  tenants: (search?: string) => (search ? withQuery("/tenants", new URLSearchParams({ search })) : "/tenants"),
  tokens: (tenantId?: string | null) => keeping("/tokens", tenantId),
  profile: (tenantId?: string | null) => keeping("/profile", tenantId),
  /** Platform users (operators and support staff), optionally searched. */
  users: (tenantId?: string | null) => keeping("/users", tenantId),
  /** The OAuth broker's applications (operators). */
  applications: (tenantId?: string | null) => keeping("/applications", tenantId),
  /** Every tenant's audit events, searched (operators and support), with the search's query. */
  auditSearch: (tenantId?: string | null, query?: URLSearchParams | string) =>
    query ? withQuery("/audit", query) : keeping("/audit", tenantId),
  /** The platform search's export download (a console route handler). */
  auditSearchExport: (query: URLSearchParams) => `/api/console/audit/export?${query}`,
  /** Every tenant's SAML signing certificates that end soon (operators and support). */
  certificates: (tenantId?: string | null) => keeping("/certificates", tenantId),
  login: () => "/login",
  forgotPassword: () => "/forgot-password",
  docs: () => "/docs",
  tenant,
  /** A page of one tenant by its segment below /tenants/{id} ("" for the overview). */
  tenantSection: (tenantId: string, segment: string) => (segment ? `${tenant(tenantId)}/${segment}` : tenant(tenantId)),
  members: (tenantId: string) => `${tenant(tenantId)}/members`,
  sso: (tenantId: string) => `${tenant(tenantId)}/sso`,
  domains: (tenantId: string) => `${tenant(tenantId)}/domains`,
  /** The audit browser, with its filters and position as the query (components/audit/filters.ts). */
  audit: (tenantId: string, query?: URLSearchParams | string) => withQuery(`${tenant(tenantId)}/audit`, query),
  webhooks: (tenantId: string) => `${tenant(tenantId)}/webhooks`,
  webhook,
  /** The webhook's page, scrolled to its deliveries with this one opened. */
  delivery: (tenantId: string, webhookId: string, deliveryId: string) =>
    `${webhook(tenantId, webhookId)}?delivery=${encodeURIComponent(deliveryId)}#deliveries`,
  logStreams: (tenantId: string) => `${tenant(tenantId)}/log-streams`,
  logStream,
  directories: (tenantId: string) => `${tenant(tenantId)}/directories`,
  /** A directory's page, on one of its sections (`?tab=users`, with the users list's filters). */
  directory: (tenantId: string, directoryId: string, query?: URLSearchParams | string) =>
    withQuery(directory(tenantId, directoryId), query),
  directoryUser: (tenantId: string, directoryId: string, userId: string) => `${directory(tenantId, directoryId)}/users/${userId}`,
  /** The audit export download (a console route handler, not a page). */
  auditExport: (tenantId: string, query: URLSearchParams) => `/api/console/tenants/${encodeURIComponent(tenantId)}/audit/export?${query}`,
  /** `pathname` with a new query string (none when empty): the same page, other parameters. */
  withQuery,
};
