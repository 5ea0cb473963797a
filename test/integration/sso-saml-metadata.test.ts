/**
 * Both sides' SAML metadata: the IdP's (every signing certificate kept, for rollover) and ours,
 * served without auth at /api/sso/saml/{provider_id}/metadata.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { XMLParser } from "fast-xml-parser";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { startIdpServer, type IdpServer } from "../support/idp-server.ts";
import { startSamlIdp, type SamlIdp } from "../support/saml-idp.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";
import { parseSamlMetadata } from "../../server/sso/metadata.ts";
import { samlSpDetails } from "../../server/sso/sp.ts";

const api = apiServer();
let idp: SamlIdp;
let discovery: IdpServer;
beforeAll(async () => {
  [idp, discovery] = await Promise.all([startSamlIdp({ certificates: 2 }), startIdpServer()]);
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([idp.close(), discovery.close()]);
});

describe("IdP metadata", () => {
  test("every signing certificate is kept (rollover); encryption-only keys and repeats are not", () => {
    const [first, second] = idp.keys;
    const encryption = `<md:KeyDescriptor use="encryption"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${first!.certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
    const unmarked = `<md:KeyDescriptor><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${second!.certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
    const xml = idp.metadataXml().replace("<md:NameIDFormat>", `${encryption}${unmarked}<md:NameIDFormat>`);
    const details = parseSamlMetadata(xml);
    expect(details.signing_certificates).toEqual([first!.certificateBase64, second!.certificateBase64]);
    expect(details).toMatchObject({ entity_id: idp.entityId, sso_url: idp.ssoUrl, certificates: 2 });
  });

  test("in an EntitiesDescriptor the IdP is found when an SP comes first", () => {
    const sp = `<md:EntityDescriptor entityID="https://sp.example.test/sp"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>`;
    const inner = idp
      .metadataXml()
      .replace(/^<\?xml[^>]*>/, "")
      .replace(/ xmlns:(md|ds)="[^"]*"/g, "");
    const xml = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">${sp}${inner}</md:EntitiesDescriptor>`;
    expect(parseSamlMetadata(xml)).toMatchObject({ entity_id: idp.entityId, sso_url: idp.ssoUrl, certificates: 2 });
  });

  test("a KeyDescriptor marked encryption only is not trusted for signatures", () => {
    const xml = idp.metadataXml().replace('use="signing"', 'use="encryption"');
    expect(parseSamlMetadata(xml).signing_certificates).toEqual([idp.keys[1]!.certificateBase64]);
  });
});

describe("GET /api/sso/saml/{provider_id}/metadata", () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", removeNSPrefix: true });

  async function provider(type: string, metadataUrl: string) {
    const { tenant, admin } = await tenantWithMembers();
    const res = await client(api.url, admin.token).post(`/api/v1/tenants/${tenant.id}/sso`, {
      provider_type: type,
      name: type,
      metadata_url: metadataUrl,
    });
    expect(res.status).toBe(201);
    return res.json.id as string;
  }

  test("serves our SP metadata without auth: entityID, HTTP-POST ACS, NameIDFormat", async () => {
    const id = await provider("saml", idp.metadataUrl);
    const res = await fetch(`${api.url}/api/sso/saml/${id}/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/samlmetadata\+xml/);
    const sp = samlSpDetails(id);
    const doc = parser.parse(await res.text());
    expect(doc.EntityDescriptor.entityID).toBe(sp.entity_id);
    expect(sp.entity_id).toBe(sp.metadata_url);
    const descriptor = doc.EntityDescriptor.SPSSODescriptor;
    expect(descriptor.protocolSupportEnumeration).toBe("urn:oasis:names:tc:SAML:2.0:protocol");
    expect(descriptor.NameIDFormat).toBe("urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress");
    expect(descriptor.AssertionConsumerService).toMatchObject({
      Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
      Location: sp.acs_url,
    });
    expect(sp.acs_url).toMatch(new RegExp(`/api/sso/saml/${id}/acs$`));
  });

  test.each([
    ["an unknown provider", () => randomUUID()],
    ["a malformed id", () => "not-a-uuid"],
  ])("%s → 404 problem+json", async (_, id) => {
    const res = await fetch(`${api.url}/api/sso/saml/${id()}/metadata`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ code: "not_found", status: 404 });
  });

  test("an Entra ID provider given SAML metadata speaks SAML: it has SP metadata too", async () => {
    const id = await provider("azure_ad", idp.metadataUrl);
    await metadataChecksIdle();
    const res = await fetch(`${api.url}/api/sso/saml/${id}/metadata`);
    expect(res.status).toBe(200);
    expect(parser.parse(await res.text()).EntityDescriptor.entityID).toBe(samlSpDetails(id).entity_id);
  });

  test("an OIDC provider → 404 problem+json", async () => {
    const id = await provider("oidc", `${discovery.url}/.well-known/openid-configuration`);
    const res = await fetch(`${api.url}/api/sso/saml/${id}/metadata`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "not_found" });
  });
});
