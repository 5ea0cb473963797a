/**
 * SSO step-up through SAML against an IdP that ignores ForceAuthn (issue 21, finding 12): asking
 * for re-authentication is not proof of it, so the signed assertion's AuthnInstant must fall within
 * the step-up. Against the local SAML IdP, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { freePort, startApi, type TestApi } from "../support/api.ts";
import { client, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { startSamlIdp, type PostedForm, type SamlIdp } from "../support/saml-idp.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, pathOf, sessionCookieOf, uniqueDomain } from "../support/sso-signin.ts";
import { consoleCaller } from "../support/console-caller.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

let api: TestApi;
let idp: SamlIdp;
beforeAll(async () => {
  const port = await freePort();
  process.env.APP_URL = `http://127.0.0.1:${port}`;
  [api, idp] = await Promise.all([startApi(port), startSamlIdp()]);
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([api.close(), idp.close()]);
});

/** A SAML provider, and a person signed in to the console through it when the IdP's session began. */
async function samlSession(sessionBegan: Date) {
  const world = await tenantWithMembers();
  const domain = uniqueDomain();
  await verifiedDomains(world.tenant.id, [domain]);
  const admin = client(api.url, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}/sso`;
  const created = await admin.post(base, {
    provider_type: "saml",
    name: "Lazy SAML IdP",
    metadata_url: idp.metadataUrl,
    domains: [domain],
  });
  expect(created.status).toBe(201);
  expect((await admin.post(`${base}/${created.json.id}/refresh-metadata`)).json.metadata.status).toBe("valid");

  const email = `ada-${randomUUID().slice(0, 6)}@${domain}`;
  idp.user.nameId = email;
  const browser = new TestBrowser();
  const start = await browser.request(`${api.url}/api/sso/signin`, { form: { email } });
  const post = (form: PostedForm) =>
    browser.request(form.action, {
      form: { SAMLResponse: form.samlResponse, ...(form.relayState ? { RelayState: form.relayState } : {}) },
    });
  expect(pathOf((await post(await idp.login(start.location!, { authnInstant: sessionBegan }))).location)).toBe(
    `/tenants/${world.tenant.id}`,
  );
  const caller = await consoleCaller(await sessionCookieOf(browser));
  /** Starts a step-up and lets the IdP answer it with these knobs: where the popup lands. */
  const stepUp = async (overrides: { authnInstant?: Date | null }) => {
    const form = await idp.login((await caller.account.startSsoStepUp({})).url, overrides);
    expect(form.request.forceAuthn).toBe(true);
    return pathOf((await post(form)).location);
  };
  return { world, caller, stepUp };
}

const reasons = async (tenantId: string) =>
  (await eventsOf(tenantId, "sso.login_failed")).map((e) => (e.details as { reason: string; purpose: string }).reason);

describe("SSO step-up through SAML: the assertion must say the person authenticated just now", () => {
  test("an IdP answering ForceAuthn from its existing session (an old AuthnInstant) is refused; a fresh one passes", async () => {
    const sessionBegan = new Date(Date.now() - 20 * 60_000);
    const { world, caller, stepUp } = await samlSession(sessionBegan);

    expect(await stepUp({ authnInstant: sessionBegan })).toBe("/auth/popup-done?for=stepup&error=not_reauthenticated");
    expect((await caller.account.me({})).step_up_expires_at).toBeNull();
    expect(await eventsOf(world.tenant.id, "user.step_up")).toEqual([]);

    expect(await stepUp({})).toBe("/auth/popup-done?for=stepup");
    expect((await caller.account.me({})).step_up_expires_at).not.toBeNull();
    expect(await reasons(world.tenant.id)).toEqual(["not_reauthenticated"]);
  });

  test("an assertion that does not say when the person authenticated (no AuthnStatement) is refused", async () => {
    const { world, caller, stepUp } = await samlSession(new Date());
    expect(await stepUp({ authnInstant: null })).toBe("/auth/popup-done?for=stepup&error=not_reauthenticated");
    expect((await caller.account.me({})).step_up_expires_at).toBeNull();
    expect(await reasons(world.tenant.id)).toEqual(["not_reauthenticated"]);
  });

  test("an AuthnInstant in the future is refused as clock", async () => {
    const { world, caller, stepUp } = await samlSession(new Date());
    expect(await stepUp({ authnInstant: new Date(Date.now() + 60 * 60_000) })).toBe("/auth/popup-done?for=stepup&error=clock");
    expect((await caller.account.me({})).step_up_expires_at).toBeNull();
    expect(await reasons(world.tenant.id)).toEqual(["clock"]);
  });
});
