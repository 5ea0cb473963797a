/**
 * The AuthnRequest we send. Its ID is the pending request's `requestId`, so the InResponseTo that
 * comes back maps to it. HTTP-Redirect binding (deflated, base64, in the SSO URL's query) when the
 * IdP offers it; otherwise HTTP-POST, through our own page that posts the request to the IdP's
 * SSO URL from its stored metadata (the browser can only be sent to a URL, not a form).
 */
import { createHash } from "node:crypto";
import type { Tx } from "../../db/client.ts";
import { InvalidField, NotFound } from "../../errors.ts";
import { isUuid } from "../../db/ids.ts";
import { samlClient, samlConfigFrom, type SamlProviderConfig } from "./config.ts";
import type { MetadataDetails } from "../metadata.ts";
import { isSamlProvider } from "./sp-metadata.ts";

/** xsd:ID is an NCName: a letter or "_" first, then letters, digits, ".", "-", "_". */
const NCNAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;

export async function authnRequestUrl(
  config: SamlProviderConfig,
  requestId: string,
  relayState: string,
  options: { forceAuthn?: boolean } = {},
): Promise<string> {
  if (!NCNAME.test(requestId)) throw new Error("a SAML request ID must be an NCName");
  const saml = samlClient(config, requestId, options);
  if (config.ssoBinding === "redirect") return saml.getAuthorizeUrlAsync(relayState, undefined, {});
  const message = await saml.getAuthorizeMessageAsync(relayState, undefined, {});
  const url = new URL("post", config.sp.acs_url);
  url.searchParams.set("SAMLRequest", String(message.SAMLRequest));
  if (relayState) url.searchParams.set("RelayState", relayState);
  return url.toString();
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const SUBMIT = "document.forms[0].submit()";
const SUBMIT_HASH = `'sha256-${createHash("sha256").update(SUBMIT).digest("base64")}'`;

export interface PostForm {
  html: string;
  /** Only this page's one script runs, and the form may only go to the IdP. */
  contentSecurityPolicy: string;
}

/**
 * The page that posts an AuthnRequest to a POST-only IdP. Only a SAML provider whose metadata
 * says HTTP-POST has one, and the target is always that provider's SSO URL.
 */
export async function authnRequestPostForm(
  db: Tx,
  providerId: string,
  samlRequest: string | null,
  relayState: string | null,
): Promise<PostForm> {
  const row = isUuid(providerId)
    ? await db.ssoProvider.findUnique({ where: { id: providerId }, select: { id: true, protocol: true, metadataDetails: true } })
    : null;
  const details = (row?.metadataDetails ?? {}) as MetadataDetails;
  if (!row || !isSamlProvider(row) || details.sso_binding !== "post" || !details.sso_url) throw NotFound("SAML provider");
  if (!samlRequest || samlRequest.length > 16 * 1024 || !/^[A-Za-z0-9+/=]+$/.test(samlRequest)) {
    throw InvalidField("SAMLRequest", "must be a base64 AuthnRequest of at most 16 KiB");
  }
  if (relayState !== null && (relayState.length > 512 || /[^\x20-\x7e]/.test(relayState))) {
    throw InvalidField("RelayState", "must be at most 512 printable ASCII characters");
  }
  const config = samlConfigFrom({ id: row.id, allowIdpInitiated: false }, details);
  const fields = [`<input type="hidden" name="SAMLRequest" value="${escapeHtml(samlRequest)}">`];
  if (relayState !== null) fields.push(`<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">`);
  return {
    html:
      `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Signing in…</title></head><body>` +
      `<form method="post" action="${escapeHtml(config.ssoUrl)}">${fields.join("")}` +
      `<noscript><button type="submit">Continue to your identity provider</button></noscript></form>` +
      `<script>${SUBMIT}</script></body></html>`,
    contentSecurityPolicy: `default-src 'none'; script-src ${SUBMIT_HASH}; form-action ${new URL(config.ssoUrl).origin}; base-uri 'none'; frame-ancestors 'none'`,
  };
}
