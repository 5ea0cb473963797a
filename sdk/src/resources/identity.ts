/** Tenants, their members, API tokens and the caller (`/me`, step-up). */
import { Resource, unwrap } from "../resource.js";
import type { Body, Query, ReadOptions, Schema, WriteOptions } from "../types.js";

export class Tenants extends Resource {
  list(query: Query<"tenants-list"> = {}) {
    return this.pages<Schema<"Tenant">>(() => this.http.GET("/tenants", { params: { query } }));
  }
  get(tenantId: string, options: ReadOptions = {}) {
    return unwrap(this.http.GET("/tenants/{tenant_id}", { params: { path: { tenant_id: tenantId } }, ...this.read(options) }));
  }
  create(body: Body<"tenants-create">, options?: WriteOptions) {
    return unwrap(this.http.POST("/tenants", { body, ...this.write(options) }));
  }
}

export class Members extends Resource {
  list(tenantId: string, query: Query<"members-list"> = {}) {
    return this.pages<Schema<"Member">>(() =>
      this.http.GET("/tenants/{tenant_id}/members", { params: { path: { tenant_id: tenantId }, query } }),
    );
  }
  get(tenantId: string, userId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/members/{user_id}", {
        params: { path: { tenant_id: tenantId, user_id: userId } },
        ...this.read(options),
      }),
    );
  }
  /** Adds a person (or invites one, as the tenant's settings say). */
  add(tenantId: string, body: Body<"members-add">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/members", { params: { path: { tenant_id: tenantId } }, body, ...this.write(options) }),
    );
  }
  update(tenantId: string, userId: string, body: Body<"members-update">, options?: WriteOptions) {
    return unwrap(
      this.http.PATCH("/tenants/{tenant_id}/members/{user_id}", {
        params: { path: { tenant_id: tenantId, user_id: userId } },
        body,
        ...this.write(options),
      }),
    );
  }
  async remove(tenantId: string, userId: string, options: ReadOptions = {}): Promise<void> {
    await unwrap(
      this.http.DELETE("/tenants/{tenant_id}/members/{user_id}", {
        params: { path: { tenant_id: tenantId, user_id: userId } },
        ...this.read(options),
      }),
    );
  }
}

export class Tokens extends Resource {
  list(query: Query<"tokens-list"> = {}) {
    return this.pages<Schema<"ApiToken">>(() => this.http.GET("/tokens", { params: { query } }));
  }
  /** The answer alone carries `token`, the value: keep it, it is never shown again. */
  create(body: Body<"tokens-create">, options?: WriteOptions) {
    return unwrap(this.http.POST("/tokens", { body, ...this.write(options) }));
  }
  async revoke(tokenId: string, options: ReadOptions = {}): Promise<void> {
    await unwrap(this.http.DELETE("/tokens/{token_id}", { params: { path: { token_id: tokenId } }, ...this.read(options) }));
  }
}

export class Me extends Resource {
  get(options: ReadOptions = {}) {
    return unwrap(this.http.GET("/me", { ...this.read(options) }));
  }
  /** Re-verifies the token owner's password: actions that need step-up are allowed for 10 minutes. */
  stepUp(body: Body<"auth-stepUp">, options?: WriteOptions) {
    return unwrap(this.http.POST("/auth/step-up", { body, ...this.write(options) }));
  }
}
