/**
 * SAML metadata uploaded as a document (`metadata_xml`) instead of a URL, over real HTTP: real IdPs'
 * files (../shared/fixtures/idp, read in place) are read before the reply; unusable ones (a
 * billion-laughs DTD, an SP's metadata, no signing certificate, not XML, over 1 MiB) are a 400
 * naming the field; a switch of source needs a fresh step-up and is audited without the document;
 * a sign-in works against a provider configured from a file; housekeeping never fetches for one.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { startIdpServer, type IdpServer } from "../support/idp-server.ts";
import { startSamlIdp, type SamlIdp } from "../support/saml-idp.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, pathOf, uniqueDomain } from "../support/sso-signin.ts";
import { consoleAs } from "../support/console-caller.ts";
import { metadataChecksIdle, recheckStalePending } from "../../server/sso/checks.ts";
import { database } from "../../server/db/client.ts";
import { idpFixturesDir } from "../support/shared-fixtures.ts";

const fixtures = idpFixturesDir();
const fixture = (name: string) => readFileSync(path.join(fixtures, name), "utf8");

const api = apiServer({ appUrl: true });
let idp: IdpServer;
let samlIdp: SamlIdp;
beforeAll(async () => {
  [idp, samlIdp] = await Promise.all([startIdpServer(), startSamlIdp()]);
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([idp.close(), samlIdp.close()]);
});

async function setup() {
  const world = await tenantWithMembers();
  return { ...world, base: `/api/v1/tenants/${world.tenant.id}/sso`, admin: client(api.url, world.admin.token) };
}

const fieldsOf = (json: { errors?: { path: string }[] }) => (json.errors ?? []).map((e) => e.path);

describe("creating a SAML provider from an uploaded metadata file", () => {
  test.each([
    ["saml-okta.xml", "saml", "http://www.okta.com/exkppsa1qwuFV4D7z0h7", "2028-09-07T14:33:59.000Z"],
    ["saml-google-workspace.xml", "google_workspace", "https://accounts.google.com/o/saml2?idpid=C023zw3x8", "2026-12-16T17:18:02.000Z"],
    [
      "saml-entra-azure-ad-federationmetadata.xml",
      "azure_ad",
      "https://sts.windows.net/8b966979-910b-487c-a604-69229b1ac75c/",
      "2018-11-16T08:00:00.000Z",
    ],
    ["saml-adfs-ucar-federationmetadata.xml", "saml", "https://sts.ucar.edu/adfs/services/trust", "2018-10-01T06:24:30.000Z"],
  ])("%s (%s) → 201, read before the reply, metadata_url null, the document not echoed", async (file, type, entityId, expires) => {
    const { base, admin, tenant } = await setup();
    const xml = fixture(file);
    const res = await admin.post(base, { provider_type: type, name: file, metadata_xml: xml });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      protocol: "saml",
      metadata_url: null,
      metadata_source: "xml",
      metadata: { status: "valid", error: null, entity_id: entityId, certificate_expires_at: expires },
    });
    expect(res.json.metadata.checked_at).not.toBeNull();
    expect(res.json.metadata_xml).toBeUndefined();
    expect(res.text).not.toContain("X509Certificate");
    const stored = await (await db()).ssoProvider.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(stored.metadataXml).toBe(xml);
    const [created] = await eventsOf(tenant.id, "sso_provider.created");
    expect(created!.details).toMatchObject({
      metadata_url: null,
      metadata_source: "xml",
      metadata_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(created!.details)).not.toContain("EntityDescriptor");
    // Nothing is fetched afterwards: the stored result stays as read.
    await metadataChecksIdle();
    expect((await admin.get(`${base}/${res.json.id}`)).json.metadata).toEqual(res.json.metadata);
  });

  const noSigningCert = () => fixture("saml-okta.xml").replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, "");
  test.each([
    ["the billion-laughs DTD", () => fixture("reject-billion-laughs.xml"), /DTD/],
    ["an SP's metadata", () => fixture("reject-sp-metadata.xml"), /IDPSSODescriptor/],
    ["a document without a signing certificate", noSigningCert, /signing certificate/],
    ["a document that is not XML", () => '{"issuer": "https://example.com"}', /IDPSSODescriptor|EntityDescriptor|XML/],
    ["an empty string", () => "", /empty/],
  ])("%s → 400 naming metadata_xml, nothing created", async (_name, body, reason) => {
    const { base, admin, tenant } = await setup();
    const res = await admin.post(base, { provider_type: "saml", name: "Bad", metadata_xml: body() });
    expect(res.status, res.text).toBe(400);
    expect(fieldsOf(res.json)).toEqual(["metadata_xml"]);
    expect(res.json.errors[0].message).toMatch(reason);
    expect(await (await db()).ssoProvider.count({ where: { tenantId: tenant.id } })).toBe(0);
  });

  test("both metadata_url and metadata_xml, or neither → 400 naming the field", async () => {
    const { base, admin } = await setup();
    const both = await admin.post(base, {
      provider_type: "saml",
      name: "Both",
      metadata_url: `${idp.url}/saml.xml`,
      metadata_xml: fixture("saml-okta.xml"),
    });
    expect(both.status).toBe(400);
    expect(fieldsOf(both.json)).toEqual(["metadata_xml"]);
    const neither = await admin.post(base, { provider_type: "saml", name: "Neither" });
    expect(neither.status).toBe(400);
    expect(fieldsOf(neither.json)).toEqual(["metadata_url"]);
  });

  test("an OIDC provider takes no metadata_xml → 400", async () => {
    const { base, admin } = await setup();
    const res = await admin.post(base, { provider_type: "oidc", name: "OIDC", metadata_xml: fixture("saml-okta.xml") });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.json)).toEqual(["metadata_xml"]);
    expect(res.json.errors[0].message).toMatch(/only for SAML/);
  });

  test("a document over 1 MiB is refused: 400 naming metadata_xml (console), 413 at the REST edge's body cap", async () => {
    const { base, admin, tenant } = await setup();
    const okta = fixture("saml-okta.xml");
    const huge = okta.replace("</md:EntityDescriptor>", `<!-- ${"x".repeat(1024 * 1024)} --></md:EntityDescriptor>`);
    const rest = await admin.post(base, { provider_type: "saml", name: "Huge", metadata_xml: huge });
    expect(rest.status).toBe(413);
    const caller = await consoleAs((await tenantAdminId(tenant.id))!);
    const error = await caller.tenantSso
      .create({ tenant_id: tenant.id, provider_type: "saml", name: "Huge", metadata_xml: huge })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    expect((error as TRPCError).message).toMatch(/metadata_xml/);
    expect(await (await db()).ssoProvider.count({ where: { tenantId: tenant.id } })).toBe(0);
  });
});

async function tenantAdminId(tenantId: string) {
  return (await (await db()).membership.findFirst({ where: { tenantId, role: "admin" } }))?.userId;
}

describe("switching the source by PATCH", () => {
  test("url → xml needs a fresh step-up (401 step_up_required, nothing changed), then 200; audited without the document", async () => {
    const { base, admin, tenant } = await setup();
    const created = await admin.post(base, { provider_type: "saml", name: "Switch", metadata_url: `${idp.url}/saml.xml` });
    expect(created.json.metadata_source).toBe("url");
    await metadataChecksIdle();
    const one = `${base}/${created.json.id}`;
    const google = fixture("saml-google-workspace.xml");

    const refused = await admin.patch(one, { metadata_xml: google });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect((await admin.get(one)).json).toMatchObject({ metadata_source: "url", metadata_url: `${idp.url}/saml.xml` });

    // A document that is not usable is a 400 before any step-up is asked.
    const bad = await admin.patch(one, { metadata_xml: fixture("reject-sp-metadata.xml") });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.json)).toEqual(["metadata_xml"]);
    const both = await admin.patch(one, { metadata_xml: google, metadata_url: `${idp.url}/saml.xml` });
    expect(both.status).toBe(400);

    expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
    const switched = await admin.patch(one, { metadata_xml: google });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.json).toMatchObject({
      metadata_source: "xml",
      metadata_url: null,
      metadata: { status: "valid", entity_id: "https://accounts.google.com/o/saml2?idpid=C023zw3x8" },
    });
    await metadataChecksIdle();
    expect((await admin.get(one)).json.metadata.status).toBe("valid");

    // The same document again is no change; another one is.
    expect((await admin.patch(one, { metadata_xml: google })).status).toBe(200);
    const okta = await admin.patch(one, { metadata_xml: fixture("saml-okta.xml") });
    expect(okta.json.metadata.entity_id).toBe("http://www.okta.com/exkppsa1qwuFV4D7z0h7");
    // Back to a URL: the document is dropped and the URL checked again.
    const back = await admin.patch(one, { metadata_url: `${idp.url}/saml.xml` });
    expect(back.json).toMatchObject({ metadata_source: "url", metadata_url: `${idp.url}/saml.xml`, metadata: { status: "pending" } });
    await metadataChecksIdle();
    expect((await admin.get(one)).json.metadata.status).toBe("valid");
    expect((await (await db()).ssoProvider.findUniqueOrThrow({ where: { id: created.json.id } })).metadataXml).toBeNull();

    const updated = (await eventsOf(tenant.id, "sso_provider.updated")).map((e) => (e.details as { changes: object }).changes);
    expect(updated).toEqual([
      {
        metadata_url: { from: `${idp.url}/saml.xml`, to: null },
        metadata_xml: { from: "url", to: "xml", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      },
      { metadata_xml: { from: "xml", to: "xml", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } },
      { metadata_url: { from: null, to: `${idp.url}/saml.xml` }, metadata_xml: { from: "xml", to: "url" } },
    ]);
    expect(JSON.stringify(updated)).not.toContain("EntityDescriptor");
  });

  test("xml → xml (another IdP's document) needs a step-up too; the same document does not", async () => {
    const { base, admin } = await setup();
    const okta = fixture("saml-okta.xml");
    const created = await admin.post(base, { provider_type: "saml", name: "Doc", metadata_xml: okta });
    const one = `${base}/${created.json.id}`;
    expect((await admin.patch(one, { metadata_xml: okta, name: "Renamed" })).status).toBe(200);
    const refused = await admin.patch(one, { metadata_xml: fixture("saml-google-workspace.xml") });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect((await admin.get(one)).json.metadata.entity_id).toBe("http://www.okta.com/exkppsa1qwuFV4D7z0h7");
  });
});

describe("a provider configured from a file", () => {
  test("a SAML sign-in through the local IdP works against it", async () => {
    const { base, admin, tenant } = await setup();
    const domain = uniqueDomain();
    await verifiedDomains(tenant.id, [domain]);
    const created = await admin.post(base, {
      provider_type: "saml",
      name: "From file",
      metadata_xml: samlIdp.metadataXml(),
      domains: [domain],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.metadata).toMatchObject({ status: "valid", entity_id: samlIdp.entityId, sso_url: samlIdp.ssoUrl });

    const email = `ada-${randomUUID().slice(0, 6)}@${domain}`;
    samlIdp.user.nameId = email;
    const browser = new TestBrowser();
    const start = await browser.request(`${api.url}/api/sso/signin`, { form: { email } });
    expect(start.location).toMatch(new RegExp(`^${samlIdp.ssoUrl}\\?SAMLRequest=`));
    const form = await samlIdp.login(start.location!);
    const done = await browser.request(form.action, {
      form: { SAMLResponse: form.samlResponse, ...(form.relayState ? { RelayState: form.relayState } : {}) },
    });
    expect(await eventsOf(tenant.id, "sso.login_failed")).toEqual([]);
    expect(done.status).toBe(303);
    expect(pathOf(done.location)).toBe(`/tenants/${tenant.id}`);
    expect(await eventsOf(tenant.id, "user.login")).toHaveLength(1);
  });

  // Before: the check fetched metadata_url (null for a file) and stored `unreachable`, losing the certificates.
  test("housekeeping and refresh read the stored document again (expiry re-evaluated), never a URL", async () => {
    const { base, admin } = await setup();
    const created = await admin.post(base, { provider_type: "saml", name: "Stale", metadata_xml: fixture("saml-okta.xml") });
    const id = created.json.id as string;
    const prisma = await db();
    // As if a check had been left pending by a stopped process, with what it said forgotten.
    await prisma.$executeRaw`UPDATE sso_providers SET metadata_status = 'pending', metadata_details = '{}', updated_at = now() - interval '5 minutes' WHERE id = ${id}::uuid`;
    expect(await recheckStalePending(await database())).toBeGreaterThanOrEqual(1);
    const row = await prisma.ssoProvider.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ metadataStatus: "valid", metadataUrl: null });
    expect(row.metadataDetails).toMatchObject({ certificate_expires_at: "2028-09-07T14:33:59.000Z" });
    const refreshed = await admin.post(`${base}/${id}/refresh-metadata`);
    expect(refreshed.json.metadata).toMatchObject({ status: "valid", entity_id: "http://www.okta.com/exkppsa1qwuFV4D7z0h7" });
  });
});
