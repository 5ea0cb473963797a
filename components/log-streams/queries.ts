/**
 * The log streams pages' first queries, shared by the client components and the pages that run
 * them on the server with the page (not a client module, so server components get the values).
 */

export const STREAMS_PAGE_SIZE = 20;
export const BATCHES_PAGE_SIZE = 20;

export function streamsInput(tenantId: string, cursor?: string) {
  return { tenant_id: tenantId, page_size: STREAMS_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}

export function streamInput(tenantId: string, streamId: string) {
  return { tenant_id: tenantId, stream_id: streamId };
}

export function batchesInput(tenantId: string, streamId: string, cursor?: string) {
  return { tenant_id: tenantId, stream_id: streamId, page_size: BATCHES_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}
