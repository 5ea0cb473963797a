/**
 * Fixtures for the SSO journeys, on top of the identity ones (tenants with a member who can sign
 * in): a local identity provider the app can fetch metadata from (e2e/serve.mjs allows private
 * addresses), a real OpenID Provider to sign in through (started by the first test that asks for
 * it), providers made over the REST API, and the SSO page.
 */
import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { startIdpServer, type IdpServer } from "../test/support/idp-server";
import { startOidcOp, type TestOp } from "../test/support/oidc-op";
import { OPERATOR_TOKEN } from "./constants";
import { expect, signInAs, test as base, uniqueName } from "./identity";
import { SsoPage } from "./pages/sso-page";

export interface Provider {
  id: string;
  name: string;
  enabled: boolean;
  domains: string[];
}

/** SSO providers over the REST API, as the bootstrap operator. */
export class SsoApi {
  constructor(private readonly request: APIRequestContext) {}

  private headers = { Authorization: `Bearer ${OPERATOR_TOKEN}` };

  /**
   * Makes domains verified domains of the tenant, as a platform operator's override does (there is
   * no DNS server in the e2e set-up): an enabled provider routes only verified domains.
   */
  async verifyDomains(tenantId: string, domains: string[]): Promise<void> {
    for (const domain of domains) {
      const added = await this.request.post(`/api/v1/tenants/${tenantId}/domains`, { headers: this.headers, data: { domain } });
      expect(added.status(), await added.text()).toBe(201);
      const { id } = (await added.json()) as { id: string };
      const verified = await this.request.post(`/api/v1/tenants/${tenantId}/domains/${id}/verify`, {
        headers: this.headers,
        data: { override: true, reason: "e2e: no DNS in the test set-up" },
      });
      expect(verified.status(), await verified.text()).toBe(200);
      const joined = await this.request.patch(`/api/v1/tenants/${tenantId}/domains/${id}`, {
        headers: this.headers,
        data: { auto_join: true },
      });
      expect(joined.status(), await joined.text()).toBe(200);
    }
  }

  /** Creates a provider over REST; its domains are verified first (with auto-join, as sign-ins expect). */
  async createProvider(tenantId: string, body: Record<string, unknown>): Promise<Provider> {
    await this.verifyDomains(tenantId, (body.domains as string[] | undefined) ?? []);
    const response = await this.request.post(`/api/v1/tenants/${tenantId}/sso`, { headers: this.headers, data: body });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as Provider;
  }

  /**
   * An OIDC provider of the tenant at the test OP, for a fresh verified domain, with the OP knowing
   * it as a client: what a journey signing someone in through SSO starts from.
   */
  async createOidcProvider(op: TestOp, tenantId: string, defaultRole: "admin" | "viewer") {
    const domain = `corp-${randomUUID().slice(0, 8)}.example`;
    const client = { client_id: `console-${randomUUID().slice(0, 8)}`, client_secret: `secret-${randomUUID()}` };
    const provider = (await this.createProvider(tenantId, {
      provider_type: "oidc",
      name: uniqueName("Corp IdP"),
      metadata_url: op.discoveryUrl,
      domains: [domain],
      ...client,
      default_role: defaultRole,
    })) as Provider & { sp: { redirect_uri: string } };
    op.addClient({ ...client, redirect_uris: [provider.sp.redirect_uri] });
    return { provider, domain };
  }

  async listProviders(tenantId: string): Promise<Provider[]> {
    const response = await this.request.get(`/api/v1/tenants/${tenantId}/sso`, { headers: this.headers });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { results: Provider[] }).results;
  }
}

export const test = base.extend<{ ssoApi: SsoApi; ssoPage: SsoPage }, { idp: IdpServer; op: TestOp }>({
  idp: [
    async ({}, provide) => {
      const idp = await startIdpServer();
      await provide(idp);
      await idp.close();
    },
    { scope: "worker" },
  ],
  op: [
    async ({}, provide) => {
      const op = await startOidcOp();
      await provide(op);
      await op.close();
    },
    { scope: "worker" },
  ],
  ssoApi: async ({ request }, provide) => provide(new SsoApi(request)),
  ssoPage: async ({ page }, provide) => provide(new SsoPage(page)),
});

export { expect, signInAs, uniqueName };
