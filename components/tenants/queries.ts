/**
 * The tenants list's first query, shared by the client table and the page that runs it on the
 * server with the page (not a client module, so server components get the values).
 */
export const TENANTS_PAGE_SIZE = 20;

/** A page of the tenants list: those matching `search` (part of a name, or an exact id), from `cursor`. */
export function tenantsInput(search: string, cursor?: string) {
  return { page_size: TENANTS_PAGE_SIZE, ...(search ? { search } : {}), ...(cursor ? { cursor } : {}) };
}

/** The signed-in account's pending invitations, shown above the tenants list (one page: few ever wait). */
export const MY_INVITATIONS_INPUT = { page_size: 100 };

/** The tenant's SSO providers as the Overview reads them (and the SSO page's setup-link card). */
export function overviewSsoInput(tenantId: string) {
  return { tenant_id: tenantId, page_size: 100 };
}
