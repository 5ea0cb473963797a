/**
 * An OIDC email signs someone in only when it is known to be verified (issue 21, finding 12):
 * `email_verified: true` from a generic OP or Google; from Entra ID (which never sends it), an
 * address of a directory the provider names, or one Entra marks `xms_edov`. Against real OPs
 * (oidc-provider) over real HTTP; each refusal is `sso.login_failed` reason `email_not_verified`.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { freePort, startApi, type TestApi } from "../support/api.ts";
import { db, tenantWithMembers } from "../support/fixtures.ts";
import { startOidcOp, type Account, type TestOp } from "../support/oidc-op.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, oidcProvider, pathOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

let api: TestApi;
let op: TestOp;
let google: TestOp;
let entra: TestOp;
const ENTRA_TENANT = randomUUID();

beforeAll(async () => {
  const port = await freePort();
  process.env.APP_URL = `http://127.0.0.1:${port}`;
  [api, op, google, entra] = await Promise.all([
    startApi(port),
    startOidcOp(),
    startOidcOp({ idTokenClaims: true }),
    startOidcOp({ mount: `/${ENTRA_TENANT}/v2.0`, idTokenClaims: true }),
  ]);
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([api.close(), op.close(), google.close(), entra.close()]);
});

/** A tenant with a provider of this type at this OP, and a person at the OP with these claims. */
async function world(o: TestOp, type: string, metadataUrl: string, claims: Partial<Account>) {
  const { tenant, admin } = await tenantWithMembers();
  const domain = uniqueDomain();
  const { providerId } = await oidcProvider(api.url, admin.token, tenant.id, o, { type, metadataUrl, domains: [domain] });
  const sub = `sub-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  o.accounts.set(sub, { sub, email, given_name: "Eve", family_name: "Unverified", ...claims });
  return { tenant, domain, providerId, email };
}

async function expectRefused(w: { tenant: { id: string }; email: string }, o: TestOp) {
  const hop = await signIn(new TestBrowser(), api.url, o.origin, w.email);
  expect(pathOf(hop.location)).toBe("/login?sso_error=email_not_verified");
  expect(hop.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token="))).toBe(false);
  const [failure] = await eventsOf(w.tenant.id, "sso.login_failed");
  expect(failure?.details).toMatchObject({ reason: "email_not_verified" });
  expect(await eventsOf(w.tenant.id, "user.login")).toEqual([]);
  return failure!;
}

async function expectSignedIn(w: { tenant: { id: string }; email: string }, o: TestOp) {
  const hop = await signIn(new TestBrowser(), api.url, o.origin, w.email);
  expect(await eventsOf(w.tenant.id, "sso.login_failed")).toEqual([]);
  expect(pathOf(hop.location)).toBe(`/tenants/${w.tenant.id}`);
}

describe("an OP that does not vouch for the email", () => {
  test("an unverified address of an existing admin does not sign in as that admin", async () => {
    const w = await world(op, "oidc", op.discoveryUrl, { email_verified: false });
    const prisma = await db();
    const victim = await prisma.user.create({ data: { email: w.email } });
    await prisma.membership.create({ data: { tenantId: w.tenant.id, userId: victim.id, role: "admin" } });
    const failure = await expectRefused(w, op);
    expect((failure.details as { detail: string }).detail).toContain("not verified");
  });

  test.each([
    ["oidc", () => op, () => op.discoveryUrl],
    ["google_workspace", () => google, () => google.discoveryUrl],
  ] as const)("%s: no email_verified claim at all is refused as well; no user is created", async (type, opOf, urlOf) => {
    const w = await world(opOf(), type, urlOf(), {});
    await expectRefused(w, opOf());
    expect(await (await db()).user.count({ where: { email: w.email } })).toBe(0);
  });

  test("email_verified: true signs in (control)", async () => {
    await expectSignedIn(await world(op, "oidc", op.discoveryUrl, { email_verified: true }), op);
  });
});

describe("Entra ID (azure_ad), which never sends email_verified", () => {
  test("a directory the provider names: its addresses sign in", async () => {
    await expectSignedIn(await world(entra, "azure_ad", entra.discoveryUrl, { tid: ENTRA_TENANT }), entra);
  });

  test("…unless Entra says the email's domain owner is not verified (xms_edov false)", async () => {
    await expectRefused(await world(entra, "azure_ad", entra.discoveryUrl, { tid: ENTRA_TENANT, xms_edov: false }), entra);
  });

  test("the multi-tenant {tenantid} issuer: any directory may answer, so only xms_edov or email_verified count", async () => {
    await expectRefused(await world(entra, "azure_ad", entra.templateDiscoveryUrl, { tid: ENTRA_TENANT }), entra);
    await expectSignedIn(await world(entra, "azure_ad", entra.templateDiscoveryUrl, { tid: ENTRA_TENANT, xms_edov: true }), entra);
    await expectSignedIn(await world(entra, "azure_ad", entra.templateDiscoveryUrl, { tid: ENTRA_TENANT, email_verified: true }), entra);
  });
});
