/**
 * SAML response validation against a real IdP on loopback (test/support/saml-idp.ts): it takes
 * our AuthnRequest, signs real Responses with xml-crypto, and produces each broken variant.
 * The provider is configured as an admin would (REST, metadata URL of the IdP), so its stored
 * metadata is what the validator trusts.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startSamlIdp, type ResponseOverrides, type SamlIdp } from "../support/saml-idp.ts";
import { verifyingSignatures } from "../support/saml-response.ts";
import { selfSignedCertificate } from "../support/x509.ts";
import { clock } from "../../server/clock.ts";
import { appUrl } from "../../server/env.ts";
import { database } from "../../server/db/client.ts";
import { runHousekeeping } from "../../server/app/cron.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";
import { loadSamlConfig, type SamlProviderConfig } from "../../server/sso/saml/config.ts";
import { authnRequestUrl } from "../../server/sso/saml/request.ts";
import { validateSamlResponse } from "../../server/sso/saml/validate.ts";
import { validateForProvider } from "../../server/sso/saml/rollover.ts";
import { completeSaml, samlHandler } from "../../server/sso/saml/handler.ts";
import { SsoRefused, type SignInProvider } from "../../server/sso/signin/protocol.ts";
import { newPending } from "../../server/sso/signin/pending.ts";

const api = apiServer();
let idp: SamlIdp;
let config: SamlProviderConfig;
let prisma: Awaited<ReturnType<typeof db>>;

/** A SAML provider for the IdP, created through the API; its metadata checked and stored. */
async function providerFor(metadataUrl: string, allowIdpInitiated = false): Promise<SamlProviderConfig> {
  const { tenant, admin } = await tenantWithMembers();
  const api_ = client(api.url, admin.token);
  const created = await api_.post(`/api/v1/tenants/${tenant.id}/sso`, {
    provider_type: "saml",
    name: "Local IdP",
    metadata_url: metadataUrl,
  });
  expect(created.status).toBe(201);
  const refreshed = await api_.post(`/api/v1/tenants/${tenant.id}/sso/${created.json.id}/refresh-metadata`);
  expect(refreshed.json.metadata).toMatchObject({ status: "valid", entity_id: `${new URL(metadataUrl).origin}/entity` });
  return loadSamlConfig(prisma, { id: created.json.id, allowIdpInitiated });
}

beforeAll(async () => {
  prisma = await db();
  idp = await startSamlIdp();
  config = await providerFor(idp.metadataUrl);
});
afterAll(async () => {
  await metadataChecksIdle();
  await idp.close();
});

/** SP-initiated: our AuthnRequest → the IdP → the form it posts back to our ACS. */
async function signIn(overrides: ResponseOverrides = {}, on: { idp?: SamlIdp; config?: SamlProviderConfig } = {}) {
  const requestId = `_${randomUUID()}`;
  const url = await authnRequestUrl(on.config ?? config, requestId, `relay-${requestId}`);
  const form = await (on.idp ?? idp).login(url, overrides);
  return { requestId, form };
}

async function refusal(promise: Promise<unknown>): Promise<SsoRefused> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SsoRefused);
  return error as SsoRefused;
}

async function refusedWith(overrides: ResponseOverrides) {
  const { requestId, form } = await signIn(overrides);
  return refusal(validateSamlResponse(prisma, config, form.samlResponse, requestId));
}

describe("SAML sign-in that succeeds", () => {
  test("SP-initiated, Response signed: the AuthnRequest reaches the IdP and the profile comes back", async () => {
    const { requestId, form } = await signIn();
    expect(form.request).toEqual({
      id: requestId,
      issuer: config.sp.entity_id,
      acsUrl: config.sp.acs_url,
      destination: idp.ssoUrl,
      forceAuthn: false,
    });
    expect(form.action).toBe(config.sp.acs_url);
    expect(form.relayState).toBe(`relay-${requestId}`);

    const result = await validateSamlResponse(prisma, config, form.samlResponse, requestId);
    expect(result).toMatchObject({ inResponseTo: requestId, assertionId: form.assertionId });
    expect(result.profile).toEqual({
      id: "alice@example.com",
      email: "alice@example.com",
      first_name: "Alice",
      last_name: "Liddell",
      groups: ["engineering", "admins"],
      issuer: idp.entityId,
      raw_attributes: {
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname": "Alice",
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname": "Liddell",
        "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups": ["engineering", "admins"],
      },
    });
  });

  test("only the Assertion signed (Entra and Okta's default) is accepted", async () => {
    const { requestId, form } = await signIn({ signing: "assertion" });
    expect((await validateSamlResponse(prisma, config, form.samlResponse, requestId)).profile.email).toBe("alice@example.com");
  });

  test("both signed is accepted", async () => {
    const { requestId, form } = await signIn({ signing: "both" });
    expect((await validateSamlResponse(prisma, config, form.samlResponse, requestId)).inResponseTo).toBe(requestId);
  });

  test("certificate rollover: metadata lists two certificates and the IdP signs with the second", async () => {
    const rolling = await startSamlIdp({ certificates: 2 });
    try {
      const rollingConfig = await providerFor(rolling.metadataUrl);
      expect(rollingConfig.certificates).toEqual(rolling.keys.map((k) => k.certificateBase64));
      for (const key of rolling.keys) {
        rolling.signingKey = key;
        const { requestId, form } = await signIn({ signing: "assertion" }, { idp: rolling, config: rollingConfig });
        expect((await validateSamlResponse(prisma, rollingConfig, form.samlResponse, requestId)).profile.id).toBe("alice@example.com");
      }
    } finally {
      await rolling.close();
    }
  });

  test("an IdP that takes AuthnRequests only by HTTP-POST: our page posts it there, and the sign-in completes", async () => {
    const postOnly = await startSamlIdp({ binding: "post" });
    try {
      const postConfig = await providerFor(postOnly.metadataUrl);
      expect(postConfig.ssoBinding).toBe("post");
      const requestId = `_${randomUUID()}`;
      // APP_URL is the default in tests; the test API server stands in for it.
      const url = (await authnRequestUrl(postConfig, requestId, "relay-post")).replace(appUrl(), api.url);
      expect(url).toMatch(new RegExp(`^${api.url}/api/sso/saml/${postConfig.providerId}/post\\?SAMLRequest=`));

      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-security-policy")).toMatch(new RegExp(`script-src 'sha256-[^']+'; form-action ${postOnly.url};`));

      const form = await postOnly.login(url);
      expect(form.request).toMatchObject({ id: requestId, acsUrl: postConfig.sp.acs_url });
      expect(form.relayState).toBe("relay-post");
      expect((await validateSamlResponse(prisma, postConfig, form.samlResponse, requestId)).profile.email).toBe("alice@example.com");

      // The page exists only for POST-only SAML providers, and takes only a base64 request.
      expect((await fetch(`${api.url}/api/sso/saml/${config.providerId}/post?SAMLRequest=abcd`)).status).toBe(404);
      const bad = await fetch(`${api.url}/api/sso/saml/${postConfig.providerId}/post?SAMLRequest=%3Cscript%3E`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: "invalid_request", errors: [{ path: "SAMLRequest" }] });
    } finally {
      await postOnly.close();
    }
  });

  test("profile: email from an email attribute when the NameID is opaque; Okta-style attribute names", async () => {
    const { requestId, form } = await signIn({
      nameId: "00u1abcd2EFGH3ijk4x7",
      nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
      attributes: { email: "Bob@Example.com", firstName: "Bob", lastName: "Builder", groups: "crew" },
    });
    const { profile } = await validateSamlResponse(prisma, config, form.samlResponse, requestId);
    expect(profile).toMatchObject({
      id: "00u1abcd2EFGH3ijk4x7",
      email: "bob@example.com",
      first_name: "Bob",
      last_name: "Builder",
      groups: ["crew"],
    });
  });

  test("no email anywhere is refused with no_email", async () => {
    const refused = await refusedWith({
      nameId: "opaque-id",
      nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
      attributes: {},
    });
    expect(refused.reason).toBe("no_email");
  });
});

describe("SAML responses that are refused, each for its reason", () => {
  test("unsigned (neither Response nor Assertion) → signature", async () => {
    const refused = await refusedWith({ signing: "none" });
    expect(refused).toMatchObject({ reason: "signature", detail: expect.stringMatching(/Neither/) });
  });

  test.each(["response", "assertion"] as const)("tampered after signing (%s signed) → signature", async (signing) => {
    const refused = await refusedWith({ signing, tamper: true });
    expect(refused).toMatchObject({ reason: "signature", detail: expect.stringMatching(/altered/) });
  });

  test("signed by another key (not in the metadata) → certificate", async () => {
    const stranger = selfSignedCertificate("Somebody Else");
    const refused = await refusedWith({ key: stranger, signing: "both" });
    expect(refused).toMatchObject({ reason: "certificate", detail: expect.stringMatching(/Somebody Else.*does not list/) });
  });

  test.each([
    ["sibling", "assertion"],
    ["wrap", "assertion"],
    ["extensions", "assertion"],
    ["response-wrap", "response"],
  ] as const)("XML signature wrapping (%s, %s signed) → signature, never the attacker's profile", async (xsw, signing) => {
    const { requestId, form } = await signIn({ xsw, signing });
    // A real attack: the IdP's signature still verifies, and the attacker's NameID is in the document.
    const xml = Buffer.from(form.samlResponse, "base64").toString("utf8");
    expect(verifyingSignatures(xml, idp.signingKey.certificatePem)).toBeGreaterThanOrEqual(1);
    expect(xml).toContain("attacker-alice@example.com");
    const refused = await refusal(validateSamlResponse(prisma, config, form.samlResponse, requestId));
    expect(refused).toMatchObject({ reason: "signature", detail: expect.stringMatching(/wrapping/) });
  });

  test("a comment inserted into a signed NameID does not truncate it (CVE-2017-11428 class)", async () => {
    const { requestId, form } = await signIn({ nameId: "alice@example.com.evil.test", signing: "assertion" });
    const xml = Buffer.from(form.samlResponse, "base64")
      .toString("utf8")
      .replace("alice@example.com.evil.test", "alice@example.com<!---->.evil.test");
    const result = await validateSamlResponse(prisma, config, Buffer.from(xml).toString("base64"), requestId);
    expect(result.profile).toMatchObject({ id: "alice@example.com.evil.test", email: "alice@example.com.evil.test" });
  });

  test("wrong audience → audience", async () => {
    const refused = await refusedWith({ audience: "https://someone-else.example/saml" });
    expect(refused).toMatchObject({ reason: "audience", detail: expect.stringContaining("someone-else") });
  });

  test("wrong Destination on the Response → destination", async () => {
    const refused = await refusedWith({ destination: "https://someone-else.example/acs" });
    expect(refused).toMatchObject({ reason: "destination", detail: expect.stringMatching(/Destination/) });
  });

  test("wrong Recipient in the signed assertion → destination", async () => {
    const refused = await refusedWith({ recipient: "https://someone-else.example/acs", signing: "assertion" });
    expect(refused).toMatchObject({ reason: "destination", detail: expect.stringMatching(/Recipient/) });
  });

  test("another Issuer than the provider's entity ID → issuer", async () => {
    expect((await refusedWith({ issuer: "https://evil.example/idp" })).reason).toBe("issuer");
  });

  test("expired beyond the skew → clock", async () => {
    const now = Date.now();
    const refused = await refusedWith({ notBefore: new Date(now - 10 * 60_000), notOnOrAfter: new Date(now - 2 * 60_000) });
    expect(refused).toMatchObject({ reason: "clock", detail: expect.stringMatching(/expired/) });
  });

  test("not yet valid beyond the 60 s skew → clock; 30 s ahead is within the skew and accepted", async () => {
    const now = Date.now();
    const refused = await refusedWith({ notBefore: new Date(now + 2 * 60_000) });
    expect(refused).toMatchObject({ reason: "clock", detail: expect.stringMatching(/not valid until/) });

    const ahead = await signIn({ notBefore: new Date(now + 30_000) });
    expect((await validateSamlResponse(prisma, config, ahead.form.samlResponse, ahead.requestId)).profile.id).toBe("alice@example.com");

    // SSO_CLOCK_SKEW_SECONDS=0 would refuse the same.
    const strict = await signIn({ notBefore: new Date(now + 30_000) });
    const refusedStrict = await refusal(
      validateSamlResponse(prisma, config, strict.form.samlResponse, strict.requestId, { skewSeconds: 0 }),
    );
    expect(refusedStrict.reason).toBe("clock");
  });

  test("the same assertion twice → replay, also when two instances race with it", async () => {
    const { requestId, form } = await signIn();
    await validateSamlResponse(prisma, config, form.samlResponse, requestId);
    expect((await refusal(validateSamlResponse(prisma, config, form.samlResponse, requestId))).reason).toBe("replay");

    const race = await signIn();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, async () => validateSamlResponse(prisma, config, race.form.samlResponse, race.requestId)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.reason)).toEqual(
      Array(4).fill("replay"),
    );
  });

  test("an InResponseTo we did not issue → unknown_request", async () => {
    const { form } = await signIn();
    expect((await refusal(validateSamlResponse(prisma, config, form.samlResponse, `_${randomUUID()}`))).reason).toBe("unknown_request");
    // No pending request found at all, yet the response claims to answer one.
    const other = await signIn();
    expect((await refusal(validateSamlResponse(prisma, config, other.form.samlResponse, null))).reason).toBe("unknown_request");
  });

  test("IdP-initiated (no InResponseTo) → idp_initiated unless the provider allows it", async () => {
    const unsolicited = () => idp.issue({ audience: config.sp.entity_id, acsUrl: config.sp.acs_url, inResponseTo: null });
    expect((await refusal(validateSamlResponse(prisma, config, unsolicited().samlResponse, null))).reason).toBe("idp_initiated");

    const allowing = { ...config, allowIdpInitiated: true };
    const result = await validateSamlResponse(prisma, allowing, unsolicited().samlResponse, null);
    expect(result).toMatchObject({ inResponseTo: null, profile: { email: "alice@example.com" } });
  });

  test("the IdP answers with an error status → idp_error with its message", async () => {
    const refused = await refusedWith({
      status: { code: "urn:oasis:names:tc:SAML:2.0:status:Responder", message: "User is not assigned to this application" },
    });
    expect(refused).toMatchObject({ reason: "idp_error", detail: expect.stringContaining("not assigned") });
  });

  test("garbage, a DTD, or no assertion → invalid_response", async () => {
    expect((await refusal(validateSamlResponse(prisma, config, "not base64!", null))).reason).toBe("invalid_response");
    const dtd = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>',
    );
    expect((await refusal(validateSamlResponse(prisma, config, dtd.toString("base64"), null))).reason).toBe("invalid_response");
    const empty = Buffer.from('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x" Version="2.0"/>');
    expect(await refusal(validateSamlResponse(prisma, config, empty.toString("base64"), null))).toMatchObject({
      reason: "invalid_response",
      detail: expect.stringMatching(/no assertion/),
    });
  });
});

/** The provider and pending request as the spine hands them over (only the SAML-relevant parts matter). */
const samlProvider = (id: string): SignInProvider => ({
  id,
  tenantId: randomUUID(),
  providerType: "saml",
  protocol: "saml",
  name: "SAML",
  enabled: true,
  metadataUrl: "",
  domains: [],
  domainAccess: new Map(),
  defaultRole: "viewer",
  allowIdpInitiated: false,
  entraTenantIds: [],
  clientId: null,
  clientSecret: null,
  clientSecretDropped: false,
});
const pendingFor = (providerId: string) => newPending({ tenantId: randomUUID(), providerId, protocol: "saml", purpose: "console" });

describe("the protocol handler the sign-in spine calls", () => {
  test("begin sends the browser to the IdP with the pending request's ID and state; completeSaml gives the profile", async () => {
    const provider = samlProvider(config.providerId);
    const pending = { ...pendingFor(config.providerId), requestId: `_${randomUUID()}`, state: "pending-state" };
    const url = await samlHandler.begin(provider, pending);
    expect(url.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    const form = await idp.login(url);
    expect(form).toMatchObject({ relayState: "pending-state", request: { id: pending.requestId } });
    expect(await completeSaml(provider, pending, form.samlResponse)).toMatchObject({ id: "alice@example.com", issuer: idp.entityId });
    // The response answers that request only.
    const again = await idp.login(await samlHandler.begin(provider, pendingFor(config.providerId)));
    expect(await refusal(completeSaml(provider, null, again.samlResponse))).toMatchObject({ reason: "unknown_request" });
    expect(await refusal(completeSaml({ ...provider, protocol: "oidc" }, pending, form.samlResponse))).toMatchObject({
      reason: "unsupported",
    });
  });

  test("begin refuses a provider whose metadata is not (yet) valid", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const created = await client(api.url, admin.token).post(`/api/v1/tenants/${tenant.id}/sso`, {
      provider_type: "saml",
      name: "Nowhere",
      metadata_url: `${idp.url}/no-such-metadata`,
    });
    await metadataChecksIdle();
    const refused = await refusal(samlHandler.begin(samlProvider(created.json.id), pendingFor(created.json.id)));
    expect(refused).toMatchObject({ reason: "metadata", detail: expect.stringMatching(/unreachable/) });
  });
});

describe("certificate rollover ahead of our stored metadata", () => {
  test("an unknown certificate re-fetches the metadata once per window; a newly listed certificate is then accepted", async () => {
    const rolling = await startSamlIdp();
    const realNow = clock.now;
    try {
      const before = await providerFor(rolling.metadataUrl);
      const db_ = await database();
      const provider = { id: before.providerId, allowIdpInitiated: false };
      // The IdP publishes a new certificate and signs with it at once; our copy is 6 minutes old.
      const next = selfSignedCertificate("Test SAML IdP next");
      rolling.keys.push(next);
      rolling.signingKey = next;
      const later = Date.now() + 6 * 60_000;
      clock.now = () => new Date(later);
      const long = { notOnOrAfter: new Date(later + 30 * 60_000) };

      const first = await signIn({ ...long, signing: "assertion" }, { idp: rolling, config: before });
      expect(await refusal(validateSamlResponse(prisma, before, first.form.samlResponse, first.requestId))).toMatchObject({
        reason: "certificate",
      });
      const accepted = await validateForProvider(db_, provider, first.form.samlResponse, first.requestId);
      expect(accepted.profile.email).toBe("alice@example.com");
      expect((await loadSamlConfig(prisma, provider)).certificates).toEqual([rolling.keys[0]!.certificateBase64, next.certificateBase64]);

      // Within the window a stranger's key is refused without another fetch.
      const checkedAt = (await prisma.ssoProvider.findUniqueOrThrow({ where: { id: provider.id } })).metadataCheckedAt;
      const stranger = await signIn({ ...long, key: selfSignedCertificate("Stranger") }, { idp: rolling, config: before });
      expect(await refusal(validateForProvider(db_, provider, stranger.form.samlResponse, stranger.requestId))).toMatchObject({
        reason: "certificate",
      });
      expect((await prisma.ssoProvider.findUniqueOrThrow({ where: { id: provider.id } })).metadataCheckedAt).toEqual(checkedAt);
    } finally {
      clock.now = realNow;
      await rolling.close();
    }
  });
});

describe("the replay cache", () => {
  test("rows live until the assertion's expiry plus skew, then housekeeping purges them", async () => {
    const notOnOrAfter = new Date(Date.now() + 3 * 60_000);
    const { requestId, form } = await signIn({ notOnOrAfter });
    await validateSamlResponse(prisma, config, form.samlResponse, requestId);
    const row = await prisma.ssoSamlAssertion.findUnique({
      where: { providerId_assertionId: { providerId: config.providerId, assertionId: form.assertionId } },
    });
    expect(row?.expiresAt.getTime()).toBe(notOnOrAfter.getTime() + 60_000);

    expect((await runHousekeeping(await database())).saml_assertions_purged).toBe(0);
    const realNow = clock.now;
    clock.now = () => new Date(notOnOrAfter.getTime() + 61_000);
    try {
      expect((await runHousekeeping(await database())).saml_assertions_purged).toBeGreaterThanOrEqual(1);
    } finally {
      clock.now = realNow;
    }
    expect(await prisma.ssoSamlAssertion.count({ where: { assertionId: form.assertionId } })).toBe(0);
  });
});
