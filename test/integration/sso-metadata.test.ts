import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { X509Certificate } from "node:crypto";
import { checkMetadata, parseSamlMetadata } from "../../server/sso/metadata.ts";
import { env } from "../../server/env.ts";
import { safeFetch } from "../../server/outbound/guard.ts";
import { isPrivateAddress } from "../../server/outbound/hosts.ts";
import { SIGNING_CERT_PEM, startIdpServer, XXE_PAYLOAD, type IdpServer } from "../support/idp-server.ts";

let idp: IdpServer;
beforeAll(async () => {
  idp = await startIdpServer();
});
afterAll(() => idp.close());

describe("metadata checks against a local server", () => {
  test("a real SAML metadata document is valid: entityID, SSO URL, certificate expiry", async () => {
    const result = await checkMetadata("saml", `${idp.url}/saml.xml`);
    expect(result).toMatchObject({ status: "valid", error: null });
    expect(result.details).toMatchObject({
      entity_id: "https://idp.example.test/saml",
      sso_url: "https://idp.example.test/saml/redirect",
      certificates: 1,
    });
    expect(result.details.certificate_expires_at).toBe(new Date(new X509Certificate(SIGNING_CERT_PEM).validTo).toISOString());
  });

  test("an OpenID discovery document is valid for each OIDC-based type", async () => {
    for (const type of ["oidc", "google_workspace", "azure_ad"]) {
      const result = await checkMetadata(type, `${idp.url}/.well-known/openid-configuration`);
      expect(result.status).toBe("valid");
      expect(result.details).toMatchObject({
        issuer: "https://login.example.test",
        token_endpoint: "https://login.example.test/oauth2/token",
      });
    }
  });

  test("a 500 is unreachable", async () => {
    expect(await checkMetadata("saml", `${idp.url}/error`)).toMatchObject({ status: "unreachable", error: expect.stringContaining("500") });
  });

  test("a 6 s stall is unreachable after the 5 s timeout, not a hang", async () => {
    const started = Date.now();
    const result = await checkMetadata("saml", `${idp.url}/stall`);
    expect(result).toMatchObject({ status: "unreachable", error: expect.stringMatching(/5 s/) });
    expect(Date.now() - started).toBeLessThan(5_900);
  });

  test("a 5 MiB body is invalid (over the 1 MiB cap)", async () => {
    expect(await checkMetadata("saml", `${idp.url}/huge.xml`)).toMatchObject({ status: "invalid", error: expect.stringMatching(/larger/) });
  });

  test("an XXE / entity-expansion payload is invalid and nothing is expanded", async () => {
    const result = await checkMetadata("saml", `${idp.url}/xxe.xml`);
    expect(result).toMatchObject({ status: "invalid", error: expect.stringMatching(/DTD/) });
    expect(JSON.stringify(result)).not.toMatch(/root:|aaaaaaaaaa/);
    expect(() => parseSamlMetadata(XXE_PAYLOAD)).toThrow(/DTD/);
  });

  test("redirects are not followed; non-JSON discovery is invalid", async () => {
    expect(await checkMetadata("saml", `${idp.url}/redirect`)).toMatchObject({
      status: "unreachable",
      error: expect.stringMatching(/redirect/),
    });
    expect(await checkMetadata("oidc", `${idp.url}/not-json`)).toMatchObject({ status: "invalid" });
  });

  test("with private hosts not allowed, loopback, private and metadata addresses are refused", async () => {
    const settings = env();
    settings.OUTBOUND_ALLOW_PRIVATE = false;
    try {
      const result = await checkMetadata("saml", `${idp.url}/saml.xml`);
      expect(result).toMatchObject({ status: "unreachable", error: expect.stringMatching(/private or loopback/) });
      expect(result.error).toContain("operators: OUTBOUND_ALLOW_PRIVATE=true allows them");
      await expect(safeFetch("http://localhost:1/", { timeoutMs: 1000, maxBytes: 10 })).rejects.toMatchObject({ kind: "blocked" });
      await expect(safeFetch("https://[::1]/", { timeoutMs: 1000, maxBytes: 10 })).rejects.toMatchObject({ kind: "blocked" });
      await expect(safeFetch("http://example.com/", { timeoutMs: 1000, maxBytes: 10 })).rejects.toMatchObject({
        kind: expect.stringMatching(/invalid_url|network/),
      });
    } finally {
      settings.OUTBOUND_ALLOW_PRIVATE = true;
    }
  });

  test.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.20.0.1", true],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["::1", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["93.184.216.34", false],
    ["2606:4700::6810:85e5", false],
  ])("%s is private: %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
