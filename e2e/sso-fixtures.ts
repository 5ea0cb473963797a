/**
 * Fixtures for the SSO journeys, on top of the identity ones (tenants with a member who can sign
 * in): a local identity provider the app can fetch metadata from (e2e/serve.mjs allows private
 * addresses), providers made over the REST API, and the SSO page.
 */
import type { APIRequestContext } from "@playwright/test";
import { startIdpServer, type IdpServer } from "../test/support/idp-server";
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

  async createProvider(tenantId: string, body: Record<string, unknown>): Promise<Provider> {
    const response = await this.request.post(`/api/v1/tenants/${tenantId}/sso`, { headers: this.headers, data: body });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as Provider;
  }

  async listProviders(tenantId: string): Promise<Provider[]> {
    const response = await this.request.get(`/api/v1/tenants/${tenantId}/sso`, { headers: this.headers });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { results: Provider[] }).results;
  }
}

export const test = base.extend<{ ssoApi: SsoApi; ssoPage: SsoPage }, { idp: IdpServer }>({
  idp: [
    async ({}, provide) => {
      const idp = await startIdpServer();
      await provide(idp);
      await idp.close();
    },
    { scope: "worker" },
  ],
  ssoApi: async ({ request }, provide) => provide(new SsoApi(request)),
  ssoPage: async ({ page }, provide) => provide(new SsoPage(page)),
});

export { expect, signInAs, uniqueName };
