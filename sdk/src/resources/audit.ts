/**
 * The audit log of a tenant: events read by cursor (pages stay stable while new events arrive),
 * appended by the tenant's own applications, verified, exported as a stream, and signed digests.
 */
import { Readable } from "node:stream";
import { errorFromResponse } from "../errors.js";
import { Resource, unwrap } from "../resource.js";
import type { Body, Query, ReadOptions, Schema, WriteOptions } from "../types.js";

export type AuditExportQuery = Query<"audit-export">;
export type AuditSearchQuery = Omit<Query<"audit-search">, "page" | "cursor">;
export type AuditSearchExportQuery = Query<"audit-search-export">;

export class Audit extends Resource {
  /** Every matching event, newest first, following `next_cursor` page after page. */
  list(tenantId: string, query: Omit<Query<"audit-list">, "page" | "cursor"> = {}) {
    return this.cursorPages<Schema<"AuditEvent">>((cursor) =>
      this.http.GET("/tenants/{tenant_id}/audit", {
        params: { path: { tenant_id: tenantId }, query: { ...query, ...(cursor ? { cursor } : {}) } },
      }),
    );
  }
  get(tenantId: string, eventId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/audit/{event_id}", {
        params: { path: { tenant_id: tenantId, event_id: eventId } },
        ...this.read(options),
      }),
    );
  }
  /** Appends an event of the tenant's own application. */
  append(tenantId: string, body: Body<"audit-append">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/audit", { params: { path: { tenant_id: tenantId } }, body, ...this.write(options) }),
    );
  }
  appendBatch(tenantId: string, body: Body<"audit-appendBatch">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/audit/batch", { params: { path: { tenant_id: tenantId } }, body, ...this.write(options) }),
    );
  }
  /** Checks the tenant's hash chain on the server. */
  verify(tenantId: string, options: ReadOptions = {}) {
    return unwrap(this.http.GET("/tenants/{tenant_id}/audit/verify", { params: { path: { tenant_id: tenantId } }, ...this.read(options) }));
  }
  digests(tenantId: string, query: Query<"audit-listDigests"> = {}) {
    return this.pages<Schema<"AuditDigest">>(() =>
      this.http.GET("/tenants/{tenant_id}/audit/digests", { params: { path: { tenant_id: tenantId }, query } }),
    );
  }
  createDigest(tenantId: string, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/audit/digests", { params: { path: { tenant_id: tenantId } }, ...this.write(options) }),
    );
  }
  /**
   * Every tenant's matching events, newest first, each with its tenant's name (operators and
   * support). One of actor_email, actor_id, target_id, event_type is required. Each page is audited.
   */
  search(query: AuditSearchQuery) {
    return this.cursorPages<Schema<"AuditSearchResult">>((cursor) =>
      this.http.GET("/audit", { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }),
    );
  }
  /** The search's export as a web ReadableStream of bytes (JSON array or CSV, each row naming its tenant). */
  async searchExportStream(query: AuditSearchExportQuery, options: ReadOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const { error, response } = await this.http.GET("/audit/export", { params: { query }, parseAs: "stream", signal: options.signal });
    if (!response.ok) throw errorFromResponse(response, error);
    return response.body ?? new ReadableStream({ start: (c) => c.close() });
  }
  /** The public keys the digests are signed with. */
  jwks(options: ReadOptions = {}) {
    return unwrap(this.http.GET("/audit/jwks.json", { ...this.read(options) }));
  }

  /** The export as a web ReadableStream of bytes (JSON array or CSV), read from the server as it streams. */
  async exportStream(tenantId: string, query: AuditExportQuery = {}, options: ReadOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const { error, response } = await this.http.GET("/tenants/{tenant_id}/audit/export", {
      params: { path: { tenant_id: tenantId }, query },
      parseAs: "stream",
      ...this.read(options),
    });
    if (!response.ok) throw errorFromResponse(response, error);
    return response.body ?? new ReadableStream({ start: (c) => c.close() });
  }

  /** The export as a Node Readable (pipe it to a file: `stream.pipeline(readable, fs.createWriteStream(...))`). */
  async export(tenantId: string, query: AuditExportQuery = {}, options: ReadOptions = {}): Promise<Readable> {
    return Readable.fromWeb((await this.exportStream(tenantId, query, options)) as import("node:stream/web").ReadableStream<Uint8Array>);
  }
}
