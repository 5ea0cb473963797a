import { describe, expect, test } from "vitest";
import { createHash } from "node:crypto";
import { needsRelay, readAcsForm, relayPage } from "../../server/sso/saml/acs.ts";

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://app.test/api/sso/saml/p/acs", {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });

describe("the SAML ACS form", () => {
  test("reads SAMLResponse and RelayState; anything else is an empty form", async () => {
    expect(await readAcsForm(post("SAMLResponse=PHNhbWw%2B&RelayState=abc"))).toEqual({
      samlResponse: "PHNhbWw+",
      relayState: "abc",
      relayed: false,
    });
    const json = new Request("http://app.test/acs", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(await readAcsForm(json)).toEqual({ samlResponse: "", relayState: "", relayed: false });
  });

  test("an oversized body is kept too large, so validation refuses it", async () => {
    const form = await readAcsForm(post(`SAMLResponse=${"A".repeat(600 * 1024)}`));
    expect(form.samlResponse.length).toBeGreaterThan(256 * 1024);
  });

  test("a cross-site POST is relayed once through a same-origin page", async () => {
    const crossSite = post("SAMLResponse=abc&RelayState=x%22y", { "sec-fetch-site": "cross-site" });
    const form = await readAcsForm(crossSite.clone());
    expect(needsRelay(crossSite, form)).toBe(true);
    expect(needsRelay(post("SAMLResponse=abc", { "sec-fetch-site": "same-origin" }), form)).toBe(false);
    expect(needsRelay(crossSite, { ...form, relayed: true })).toBe(false);

    const page = relayPage(form);
    const html = await page.text();
    expect(html).toContain('name="RelayState" value="x&quot;y"');
    expect(html).toContain('name="relayed" value="1"');
    const script = /<script>([^<]*)<\/script>/.exec(html)![1]!;
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
    expect(csp).toContain("form-action 'self'");
  });
});
