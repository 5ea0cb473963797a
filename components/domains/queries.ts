/**
 * The domains page's first query, shared by the client components and the page that runs it on
 * the server with the page (not a client module, so server components get the values).
 */
export const DOMAINS_PAGE_SIZE = 20;

export function domainsInput(tenantId: string, cursor?: string) {
  return { tenant_id: tenantId, page_size: DOMAINS_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}
