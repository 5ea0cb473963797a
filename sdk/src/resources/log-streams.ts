/**
 * A tenant's audit log streams: the log sent on, batch by batch, to an S3 bucket, Datadog, Splunk
 * HEC, an HTTPS endpoint or syslog (docs/log-streams.md for each type's `config`). Creating one,
 * or changing its `config`, needs a step-up (`cp.me.stepUp`); secrets are never answered back
 * (`<field>_set` says one is stored).
 */
import { Resource, unwrap } from "../resource.js";
import type { Body, Query, ReadOptions, Schema, WriteOptions } from "../types.js";

type Path = { tenant_id: string; stream_id: string };

export class LogStreams extends Resource {
  list(tenantId: string, query: Query<"logStreams-list"> = {}) {
    return this.pages<Schema<"LogStream">>(() =>
      this.http.GET("/tenants/{tenant_id}/log-streams", { params: { path: { tenant_id: tenantId }, query } }),
    );
  }
  get(tenantId: string, streamId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/log-streams/{stream_id}", {
        params: { path: this.#path(tenantId, streamId) },
        ...this.read(options),
      }),
    );
  }
  /** `start_from`: `now` (default), `oldest` (the whole log first, then live) or a date. Needs a step-up. */
  create(tenantId: string, body: Body<"logStreams-create">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/log-streams", { params: { path: { tenant_id: tenantId } }, body, ...this.write(options) }),
    );
  }
  /** Renames, pauses (`enabled: false`, the cursor kept) or resumes it; `config` is merged over the stored one (step-up). */
  update(tenantId: string, streamId: string, body: Body<"logStreams-update">, options?: WriteOptions) {
    return unwrap(
      this.http.PATCH("/tenants/{tenant_id}/log-streams/{stream_id}", {
        params: { path: this.#path(tenantId, streamId) },
        body,
        ...this.write(options),
      }),
    );
  }
  async delete(tenantId: string, streamId: string, options: ReadOptions = {}): Promise<void> {
    await unwrap(
      this.http.DELETE("/tenants/{tenant_id}/log-streams/{stream_id}", {
        params: { path: this.#path(tenantId, streamId) },
        ...this.read(options),
      }),
    );
  }
  /** Sends one batch holding a `log_stream.test` event now, and answers what the receiver said (the cursor stays). */
  test(tenantId: string, streamId: string, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/log-streams/{stream_id}/test", {
        params: { path: this.#path(tenantId, streamId) },
        ...this.write(options),
      }),
    );
  }
  /** The stream's last batches, newest first: each attempt's range, outcome and the receiver's answer. */
  batches(tenantId: string, streamId: string, query: Query<"logStreams-batches"> = {}) {
    return this.pages<Schema<"LogStreamBatch">>(() =>
      this.http.GET("/tenants/{tenant_id}/log-streams/{stream_id}/batches", { params: { path: this.#path(tenantId, streamId), query } }),
    );
  }
  #path(tenantId: string, streamId: string): Path {
    return { tenant_id: tenantId, stream_id: streamId };
  }
}
