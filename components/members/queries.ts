/**
 * The members page's first queries, shared by the client components and the page that runs them
 * on the server with the page (not a client module, so server components get the values).
 */
export const MEMBERS_PAGE_SIZE = 20;

/** Enough for any tenant's open invitations on one screen; older ones expire after 7 days anyway. */
const PENDING_PAGE_SIZE = 100;

export function membersInput(tenantId: string, cursor?: string) {
  return { tenant_id: tenantId, page_size: MEMBERS_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}

export function pendingInvitationsInput(tenantId: string) {
  return { tenant_id: tenantId, status: "pending" as const, page_size: PENDING_PAGE_SIZE };
}
