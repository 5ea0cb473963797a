/** SSO providers of a tenant, and the OAuth broker's applications (the platform's own apps). */
import { Resource, unwrap } from "../resource.js";
import type { Body, Query, ReadOptions, Schema, WriteOptions } from "../types.js";

export class SsoApplications extends Resource {
  list(query: Query<"ssoApplications-list"> = {}) {
    return this.pages<Schema<"SsoApplication">>(() => this.http.GET("/sso/applications", { params: { query } }));
  }
  get(applicationId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/sso/applications/{application_id}", { params: { path: { application_id: applicationId } }, ...this.read(options) }),
    );
  }
  /** The answer alone carries `client_secret`. */
  create(body: Body<"ssoApplications-create">, options?: WriteOptions) {
    return unwrap(this.http.POST("/sso/applications", { body, ...this.write(options) }));
  }
  update(applicationId: string, body: Body<"ssoApplications-update">, options?: WriteOptions) {
    return unwrap(
      this.http.PATCH("/sso/applications/{application_id}", {
        params: { path: { application_id: applicationId } },
        body,
        ...this.write(options),
      }),
    );
  }
  async delete(applicationId: string, options: ReadOptions = {}): Promise<void> {
    await unwrap(
      this.http.DELETE("/sso/applications/{application_id}", {
        params: { path: { application_id: applicationId } },
        ...this.read(options),
      }),
    );
  }
  rotateSecret(applicationId: string, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/sso/applications/{application_id}/rotate-secret", {
        params: { path: { application_id: applicationId } },
        ...this.write(options),
      }),
    );
  }
}

export class Sso extends Resource {
  readonly applications = new SsoApplications(this.ctx);

  list(tenantId: string, query: Query<"tenantSso-list"> = {}) {
    return this.pages<Schema<"SsoProvider">>(() =>
      this.http.GET("/tenants/{tenant_id}/sso", { params: { path: { tenant_id: tenantId }, query } }),
    );
  }
  get(tenantId: string, providerId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/sso/{provider_id}", {
        params: { path: { tenant_id: tenantId, provider_id: providerId } },
        ...this.read(options),
      }),
    );
  }
  create(tenantId: string, body: Body<"tenantSso-create">, options?: WriteOptions) {
    return unwrap(this.http.POST("/tenants/{tenant_id}/sso", { params: { path: { tenant_id: tenantId } }, body, ...this.write(options) }));
  }
  /** Disabling needs a fresh step-up (`cp.me.stepUp`). */
  update(tenantId: string, providerId: string, body: Body<"tenantSso-update">, options?: WriteOptions) {
    return unwrap(
      this.http.PATCH("/tenants/{tenant_id}/sso/{provider_id}", {
        params: { path: { tenant_id: tenantId, provider_id: providerId } },
        body,
        ...this.write(options),
      }),
    );
  }
  /** Needs a fresh step-up (`cp.me.stepUp`). */
  async delete(tenantId: string, providerId: string, options: ReadOptions = {}): Promise<void> {
    await unwrap(
      this.http.DELETE("/tenants/{tenant_id}/sso/{provider_id}", {
        params: { path: { tenant_id: tenantId, provider_id: providerId } },
        ...this.read(options),
      }),
    );
  }
  refreshMetadata(tenantId: string, providerId: string, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/sso/{provider_id}/refresh-metadata", {
        params: { path: { tenant_id: tenantId, provider_id: providerId } },
        ...this.write(options),
      }),
    );
  }
}
