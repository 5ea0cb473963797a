/**
 * Entra ID's multi-tenant issuer (`{tenantid}`: common, organizations) matches every directory, so
 * an azure_ad provider can list the directories it accepts (`entra_tenant_ids`, issue 21, finding
 * 12): an id_token from any other directory is refused as `issuer`, while a listed directory's
 * addresses count as verified like those of a single-directory issuer. Against a real OP
 * (oidc-provider) posing as Entra, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { freePort, startApi, type TestApi } from "../support/api.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, oidcProvider, pathOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

let api: TestApi;
let entra: TestOp;
/** The directory the OP answers for: to a provider listing only CUSTOMER, a stranger's directory. */
const ENTRA_TENANT = randomUUID();
const CUSTOMER = randomUUID();

beforeAll(async () => {
  const port = await freePort();
  process.env.APP_URL = `http://127.0.0.1:${port}`;
  [api, entra] = await Promise.all([startApi(port), startOidcOp({ mount: `/${ENTRA_TENANT}/v2.0`, idTokenClaims: true })]);
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([api.close(), entra.close()]);
});

/** An azure_ad provider on the multi-tenant issuer, limited to `directories`, and a person of ENTRA_TENANT. */
async function world(directories: string[], claims: { xms_edov?: boolean } = {}) {
  const { tenant, admin } = await tenantWithMembers();
  const domain = uniqueDomain();
  const rest = client(api.url, admin.token);
  const { providerId } = await oidcProvider(api.url, admin.token, tenant.id, entra, {
    type: "azure_ad",
    metadataUrl: entra.templateDiscoveryUrl,
    domains: [domain],
  });
  expect((await rest.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const patched = await rest.patch(`/api/v1/tenants/${tenant.id}/sso/${providerId}`, { entra_tenant_ids: directories });
  expect(patched.status).toBe(200);
  const sub = `sub-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  // No email_verified, as Entra sends none.
  entra.accounts.set(sub, { sub, email, tid: ENTRA_TENANT, given_name: "Dee", family_name: "Rectory", ...claims });
  return { tenant, rest, providerId, email };
}

describe("sign-in through the multi-tenant issuer", () => {
  test("an id_token from a directory the provider does not list is refused as issuer, even with an email Entra marks verified", async () => {
    const w = await world([CUSTOMER], { xms_edov: true });
    const hop = await signIn(new TestBrowser(), api.url, entra.origin, w.email);
    expect(pathOf(hop.location)).toBe("/login?sso_error=issuer");
    const [failure] = await eventsOf(w.tenant.id, "sso.login_failed");
    expect(failure?.details).toMatchObject({ reason: "issuer", provider_id: w.providerId });
    expect((failure?.details as { detail: string }).detail).toContain(ENTRA_TENANT);
    expect(await (await db()).user.count({ where: { email: w.email } })).toBe(0);
  });

  test("a listed directory signs in, its addresses trusted as a named directory's (no xms_edov needed)", async () => {
    const w = await world([CUSTOMER, ENTRA_TENANT.toUpperCase()]);
    const hop = await signIn(new TestBrowser(), api.url, entra.origin, w.email);
    expect(await eventsOf(w.tenant.id, "sso.login_failed")).toEqual([]);
    expect(pathOf(hop.location)).toBe(`/tenants/${w.tenant.id}`);
  });
});

describe("the entra_tenant_ids field", () => {
  test("is stored lower-case, returned, audited when changed, and [] by default", async () => {
    const w = await world([ENTRA_TENANT.toUpperCase()]);
    const got = await w.rest.get(`/api/v1/tenants/${w.tenant.id}/sso/${w.providerId}`);
    expect(got.json.entra_tenant_ids).toEqual([ENTRA_TENANT]);
    const [updated] = await eventsOf(w.tenant.id, "sso_provider.updated");
    expect(updated?.details).toMatchObject({ changes: { entra_tenant_ids: { from: [], to: [ENTRA_TENANT] } } });
    const created = await w.rest.post(`/api/v1/tenants/${w.tenant.id}/sso`, {
      provider_type: "azure_ad",
      name: "Another",
      metadata_url: entra.templateDiscoveryUrl,
    });
    expect(created.json.entra_tenant_ids).toEqual([]);
  });

  test.each([
    ["azure_ad", { entra_tenant_ids: ["not-a-guid"] }, "entra_tenant_ids.0"],
    ["azure_ad", { entra_tenant_ids: [CUSTOMER, CUSTOMER] }, "entra_tenant_ids"],
    ["azure_ad", { entra_tenant_ids: CUSTOMER }, "entra_tenant_ids"],
    ["oidc", { entra_tenant_ids: [CUSTOMER] }, "entra_tenant_ids"],
  ])("%s with %o is a 400 naming the field", async (type, extra, field) => {
    const { tenant, admin } = await tenantWithMembers();
    const res = await client(api.url, admin.token).post(`/api/v1/tenants/${tenant.id}/sso`, {
      provider_type: type,
      name: "P",
      metadata_url: entra.templateDiscoveryUrl,
      ...extra,
    });
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(field);
  });
});
