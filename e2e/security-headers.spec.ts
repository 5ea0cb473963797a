import { expect, test } from "./fixtures";

/** The policy's script-src, and the nonce it names. */
function scriptSrc(policy: string) {
  const directive = policy
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src "))!;
  return { directive, nonce: /'nonce-([^']+)'/.exec(directive)?.[1] };
}

test("pages carry a nonce CSP without unsafe-inline/unsafe-eval for scripts, a fresh nonce each time, on every script", async ({
  request,
}) => {
  const nonces = new Set<string>();
  for (const path of ["/login", "/docs", "/docs/errors"]) {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const policy = response.headers()["content-security-policy"]!;
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    const { directive, nonce } = scriptSrc(policy);
    expect(directive).not.toContain("unsafe-inline");
    expect(directive).not.toContain("unsafe-eval");
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    nonces.add(nonce!);
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    // Plain http here, and X-Forwarded-Proto is not believed without TRUST_PROXY: no HSTS.
    expect(response.headers()["strict-transport-security"]).toBeUndefined();
  }
  expect(nonces.size).toBe(3);
  const spoofed = await request.get("/login", { headers: { "X-Forwarded-Proto": "https" } });
  expect(spoofed.headers()["strict-transport-security"]).toBeUndefined();
});
