/** Onboarding a customer: verified domains, setup links, and Directory Sync (SCIM) directories. */
import { Resource, unwrap } from "../resource.js";
import type { Body, Query, ReadOptions, Schema, WriteOptions } from "../types.js";

type Path = { tenant_id: string; domain_id: string };

export class Domains extends Resource {
  list(tenantId: string, query: Query<"domains-list"> = {}) {
    return this.pages<Schema<"Domain">>(() =>
      this.http.GET("/tenants/{tenant_id}/domains", { params: { path: { tenant_id: tenantId }, query } }),
    );
  }
  get(tenantId: string, domainId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/domains/{domain_id}", {
        params: { path: this.#path(tenantId, domainId) },
        ...this.read(options),
      }),
    );
  }
  /** The answer carries the TXT record to publish. */
  create(tenantId: string, body: Body<"domains-create">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/domains", { params: { path: { tenant_id: tenantId } }, body, ...this.write(options) }),
    );
  }
  update(tenantId: string, domainId: string, body: Body<"domains-update">, options?: WriteOptions) {
    return unwrap(
      this.http.PATCH("/tenants/{tenant_id}/domains/{domain_id}", {
        params: { path: this.#path(tenantId, domainId) },
        body,
        ...this.write(options),
      }),
    );
  }
  async delete(tenantId: string, domainId: string, options: ReadOptions = {}): Promise<void> {
    await unwrap(
      this.http.DELETE("/tenants/{tenant_id}/domains/{domain_id}", {
        params: { path: this.#path(tenantId, domainId) },
        ...this.read(options),
      }),
    );
  }
  /** Looks the TXT record up now ("Verify now"). */
  verify(tenantId: string, domainId: string, body: Body<"domains-verify"> = {}, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/domains/{domain_id}/verify", {
        params: { path: this.#path(tenantId, domainId) },
        body,
        ...this.write(options),
      }),
    );
  }
  #path(tenantId: string, domainId: string): Path {
    return { tenant_id: tenantId, domain_id: domainId };
  }
}

export class SetupLinks extends Resource {
  list(tenantId: string, query: Query<"setupLinks-list"> = {}) {
    return this.pages<Schema<"SetupLink">>(() =>
      this.http.GET("/tenants/{tenant_id}/setup-links", { params: { path: { tenant_id: tenantId }, query } }),
    );
  }
  get(tenantId: string, setupLinkId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/setup-links/{setup_link_id}", {
        params: { path: { tenant_id: tenantId, setup_link_id: setupLinkId } },
        ...this.read(options),
      }),
    );
  }
  /** The answer alone carries the link's URL. */
  create(tenantId: string, body: Body<"setupLinks-create">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/setup-links", { params: { path: { tenant_id: tenantId } }, body, ...this.write(options) }),
    );
  }
  /**
   * Revokes the link; answers what became of a `directory_sync` link's directory (it and its token
   * live on). `rotateDirectoryToken` replaces that token in the same step (step-up; the new one is
   * `directory_token`, shown once).
   */
  delete(tenantId: string, setupLinkId: string, options: ReadOptions & { rotateDirectoryToken?: boolean } = {}) {
    const { rotateDirectoryToken, ...rest } = options;
    return unwrap(
      this.http.DELETE("/tenants/{tenant_id}/setup-links/{setup_link_id}", {
        params: {
          path: { tenant_id: tenantId, setup_link_id: setupLinkId },
          query: rotateDirectoryToken ? { rotate_directory_token: "true" } : {},
        },
        ...this.read(rest),
      }),
    );
  }
}

export class Directories extends Resource {
  list(tenantId: string, query: Query<"directories-list"> = {}) {
    return this.pages<Schema<"Directory">>(() =>
      this.http.GET("/tenants/{tenant_id}/directories", { params: { path: { tenant_id: tenantId }, query } }),
    );
  }
  get(tenantId: string, directoryId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/directories/{directory_id}", {
        params: { path: this.#path(tenantId, directoryId) },
        ...this.read(options),
      }),
    );
  }
  /** The answer alone carries the SCIM endpoint's bearer token. */
  create(tenantId: string, body: Body<"directories-create">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/directories", { params: { path: { tenant_id: tenantId } }, body, ...this.write(options) }),
    );
  }
  update(tenantId: string, directoryId: string, body: Body<"directories-update">, options?: WriteOptions) {
    return unwrap(
      this.http.PATCH("/tenants/{tenant_id}/directories/{directory_id}", {
        params: { path: this.#path(tenantId, directoryId) },
        body,
        ...this.write(options),
      }),
    );
  }
  async delete(tenantId: string, directoryId: string, options: ReadOptions = {}): Promise<void> {
    await unwrap(
      this.http.DELETE("/tenants/{tenant_id}/directories/{directory_id}", {
        params: { path: this.#path(tenantId, directoryId) },
        ...this.read(options),
      }),
    );
  }
  rotateToken(tenantId: string, directoryId: string, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/directories/{directory_id}/rotate-token", {
        params: { path: this.#path(tenantId, directoryId) },
        ...this.write(options),
      }),
    );
  }
  users(tenantId: string, directoryId: string, query: Query<"directories-listUsers"> = {}) {
    return this.pages<Schema<"DirectoryUser">>(() =>
      this.http.GET("/tenants/{tenant_id}/directories/{directory_id}/users", {
        params: { path: this.#path(tenantId, directoryId), query },
      }),
    );
  }
  groups(tenantId: string, directoryId: string, query: Query<"directories-listGroups"> = {}) {
    return this.pages<Schema<"DirectoryGroup">>(() =>
      this.http.GET("/tenants/{tenant_id}/directories/{directory_id}/groups", {
        params: { path: this.#path(tenantId, directoryId), query },
      }),
    );
  }
  #path(tenantId: string, directoryId: string) {
    return { tenant_id: tenantId, directory_id: directoryId };
  }
}
