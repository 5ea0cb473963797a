/**
 * One provider's SAML configuration, from its stored metadata (IdP entity ID, SSO URL, every
 * signing certificate) and our side of it (server/sso/sp.ts), and the node-saml client built from
 * it. node-saml does the XML signature work; its own audience, time and InResponseTo checks are
 * switched off because ./assertion.ts makes them on the verified assertion, against our clock and
 * our Postgres-held requests, and names the exact reason a response is refused.
 */
import { SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import type { Tx } from "../../db/client.ts";
import type { MetadataDetails } from "../metadata.ts";
import { samlSpDetails, type SamlSpDetails } from "../sp.ts";
import { SsoRefused } from "../signin/protocol.ts";

export const NAMEID_EMAIL = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

export interface SamlProviderConfig {
  providerId: string;
  allowIdpInitiated: boolean;
  /** The IdP's entity ID: the Issuer its assertions must carry. */
  idpEntityId: string;
  ssoUrl: string;
  /** How the SSO URL takes our AuthnRequest: a redirect, or (IdPs that offer only that) a form post. */
  ssoBinding: "redirect" | "post";
  /** Base64 DER of each signing certificate the metadata lists (all trusted, for rollover). */
  certificates: string[];
  sp: SamlSpDetails;
}

/** The configuration from a provider's parsed metadata; refuses `not_configured` when incomplete. */
export function samlConfigFrom(
  provider: { id: string; allowIdpInitiated: boolean },
  details: MetadataDetails,
  base?: string,
): SamlProviderConfig {
  const missing = [
    !details.entity_id && "the IdP entity ID",
    !details.sso_url && "the SSO URL",
    !details.signing_certificates?.length && "a signing certificate",
  ].filter(Boolean);
  if (missing.length) {
    throw new SsoRefused("not_configured", `The provider's SAML metadata lacks ${missing.join(", ")}: fix or refresh the metadata`);
  }
  return {
    providerId: provider.id,
    allowIdpInitiated: provider.allowIdpInitiated,
    idpEntityId: details.entity_id!,
    ssoUrl: details.sso_url!,
    ssoBinding: details.sso_binding ?? "redirect",
    certificates: details.signing_certificates!,
    sp: samlSpDetails(provider.id, base),
  };
}

/** Reads the provider's last metadata check from the database. */
export async function loadSamlConfig(db: Tx, provider: { id: string; allowIdpInitiated: boolean }): Promise<SamlProviderConfig> {
  const row = await db.ssoProvider.findUnique({ where: { id: provider.id }, select: { metadataStatus: true, metadataDetails: true } });
  if (!row) throw new SsoRefused("not_configured", "The provider no longer exists");
  if (row.metadataStatus !== "valid") {
    throw new SsoRefused("metadata", `The provider's SAML metadata is ${row.metadataStatus}: fix its URL or refresh it`);
  }
  return samlConfigFrom(provider, (row.metadataDetails ?? {}) as MetadataDetails);
}

/** A node-saml client for one request (cheap to make: it parses certificates lazily). */
export function samlClient(config: SamlProviderConfig, requestId?: string, options: { forceAuthn?: boolean } = {}): SAML {
  return new SAML({
    forceAuthn: options.forceAuthn ?? false,
    issuer: config.sp.entity_id,
    callbackUrl: config.sp.acs_url,
    entryPoint: config.ssoUrl,
    idpCert: config.certificates,
    // Accept a signed Response or a signed Assertion (Entra ID and Okta sign only the Assertion), never neither.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    // Checked in ./assertion.ts with SSO_CLOCK_SKEW_SECONDS, our clock and the pending request.
    audience: false,
    acceptedClockSkewMs: -1,
    validateInResponseTo: ValidateInResponseTo.never,
    // No NameIDPolicy format and no RequestedAuthnContext: Okta refuses a format its app is not
    // set to, and Entra ID one it cannot satisfy; what comes back is read from the assertion.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => requestId ?? "",
    // HTTP-POST carries the request base64-encoded as is; only HTTP-Redirect deflates it.
    skipRequestCompression: config.ssoBinding === "post",
  });
}
