/**
 * Reading what arrives at our ACS: the IdP's auto-posted form (SAMLResponse, RelayState). A POST
 * from the IdP's site is cross-site, so the browser leaves out SameSite=Lax cookies (the console
 * session that binds a Test sign-in, the binding cookie over http); such a POST is answered with
 * a page that posts the same form again from our own origin, where those cookies go along.
 */
import { createHash } from "node:crypto";
import { MAX_SAML_RESPONSE_CHARS } from "./validate.ts";

export interface AcsForm {
  samlResponse: string;
  relayState: string;
  /** True once the form came back through our relay page. */
  relayed: boolean;
}

/** The form; anything unreadable counts as empty (the validation then refuses and audits it). */
export async function readAcsForm(req: Request): Promise<AcsForm> {
  const empty = { samlResponse: "", relayState: "", relayed: false };
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get("content-type") ?? "")) return empty;
  const body = await req.text().catch(() => "");
  // base64 grows by ~1/3 when url-encoded ("+", "/", "=").
  if (body.length > MAX_SAML_RESPONSE_CHARS * 1.5) return { ...empty, samlResponse: "x".repeat(MAX_SAML_RESPONSE_CHARS + 1) };
  const form = new URLSearchParams(body);
  return { samlResponse: form.get("SAMLResponse") ?? "", relayState: form.get("RelayState") ?? "", relayed: form.get("relayed") === "1" };
}

export const needsRelay = (req: Request, form: AcsForm) => !form.relayed && req.headers.get("sec-fetch-site") === "cross-site";

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
const SUBMIT = "document.forms[0].submit()";
const SUBMIT_HASH = `'sha256-${createHash("sha256").update(SUBMIT).digest("base64")}'`;

/** The same-origin re-post of the form (to the ACS URL it came to). */
export function relayPage(form: AcsForm): Response {
  const html =
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Signing in…</title></head><body><form method="post" action="">` +
    `<input type="hidden" name="SAMLResponse" value="${escapeHtml(form.samlResponse)}">` +
    `<input type="hidden" name="RelayState" value="${escapeHtml(form.relayState)}">` +
    `<input type="hidden" name="relayed" value="1">` +
    `<noscript><button type="submit">Continue</button></noscript></form><script>${SUBMIT}</script></body></html>`;
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": `default-src 'none'; script-src ${SUBMIT_HASH}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
    },
  });
}
