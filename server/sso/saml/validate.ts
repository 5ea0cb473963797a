/**
 * Validating a SAMLResponse posted to our ACS. node-saml verifies the XML signature (a signed
 * Response or a signed Assertion, by one of the provider's certificates, refusing signature
 * wrapping by reading only what the signature covers); ./assertion.ts then checks Issuer, times,
 * Audience, Recipient/Destination and InResponseTo on that verified assertion; last, the assertion
 * ID is claimed in the replay cache. Every refusal is an SsoRefused naming the precise reason.
 */
import { X509Certificate } from "node:crypto";
import { SamlStatusError, type Profile } from "@node-saml/node-saml";
import { XMLParser } from "fast-xml-parser";
import type { Tx } from "../../db/client.ts";
import { clock } from "../../clock.ts";
import { env } from "../../env.ts";
import { checkAssertion, type ResponseEnvelope, type XmlNode } from "./assertion.ts";
import { samlClient, type SamlProviderConfig } from "./config.ts";
import { samlProfile, type SamlProfile } from "./profile.ts";
import { SsoRefused } from "../signin/protocol.ts";
import { claimAssertion } from "./replay.ts";

/** Real responses are a few KiB; 256 KiB of base64 leaves room for many attributes and groups. */
export const MAX_SAML_RESPONSE_CHARS = 256 * 1024;

export interface SamlValidation {
  profile: SamlProfile;
  /** The AuthnRequest this answers; null for an (allowed) IdP-initiated sign-in. */
  inResponseTo: string | null;
  assertionId: string;
  /** When the IdP says the person authenticated (AuthnInstant), or null. */
  authenticatedAt: Date | null;
}

export interface ValidateOptions {
  now?: Date;
  skewSeconds?: number;
}

function decode(samlResponse: string): string {
  if (!samlResponse) throw new SsoRefused("invalid_response", "No SAMLResponse was posted");
  if (samlResponse.length > MAX_SAML_RESPONSE_CHARS) throw new SsoRefused("invalid_response", "The SAMLResponse is too large");
  if (!/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) throw new SsoRefused("invalid_response", "The SAMLResponse is not base64");
  const xml = Buffer.from(samlResponse, "base64").toString("utf8");
  if (!xml.trimStart().startsWith("<")) throw new SsoRefused("invalid_response", "The SAMLResponse is not XML");
  // No DTDs at all: no entity expansion, no external entities.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SsoRefused("invalid_response", "DTDs are not allowed in a SAMLResponse");
  return xml;
}

const envelopeParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
});

/** The Response's own Destination and InResponseTo (unsigned when only the Assertion is signed). */
function envelopeOf(xml: string): ResponseEnvelope {
  let doc: Record<string, Record<string, unknown> | undefined>;
  try {
    doc = envelopeParser.parse(xml, true) as typeof doc;
  } catch {
    throw new SsoRefused("invalid_response", "The SAMLResponse is not well-formed XML");
  }
  const root = doc.Response;
  if (!root || typeof root !== "object") throw new SsoRefused("invalid_response", "The SAMLResponse is not a SAML Response");
  const value = (name: string) => (typeof root[`@_${name}`] === "string" ? (root[`@_${name}`] as string) : null);
  return { destination: value("Destination"), inResponseTo: value("InResponseTo") };
}

/** Why node-saml found no valid signature: none at all, a key we do not trust, or a broken/wrapped one. */
function signatureRefusal(xml: string, config: SamlProviderConfig): SsoRefused {
  if (!/<(?:[\w.-]+:)?Signature[\s>]/.test(xml)) {
    return new SsoRefused("signature", "Neither the Response nor the Assertion is signed");
  }
  const trusted = new Set(config.certificates);
  const embedded = [...xml.matchAll(/<(?:[\w.-]+:)?X509Certificate>([^<]+)</g)].map((m) => m[1]!.replace(/\s+/g, ""));
  if (embedded.length > 0 && !embedded.some((c) => trusted.has(c))) {
    let which = "";
    try {
      const certificate = new X509Certificate(Buffer.from(embedded[0]!, "base64"));
      which = ` (${certificate.subject.replace(/\n/g, ", ")}, SHA-256 ${certificate.fingerprint256})`;
    } catch {
      // An unreadable certificate is still not one of ours.
    }
    return new SsoRefused("certificate", `Signed with a certificate${which} that the provider's metadata does not list`);
  }
  return new SsoRefused(
    "signature",
    "The signature does not verify: the response was altered after signing, or its signed parts were moved (XML signature wrapping)",
  );
}

function refusalOf(error: unknown, xml: string, config: SamlProviderConfig): SsoRefused {
  if (error instanceof SsoRefused) return error;
  if (error instanceof SamlStatusError) return new SsoRefused("idp_error", error.message);
  const message = error instanceof Error ? error.message : String(error);
  if (/signature/i.test(message) || /Cannot obtain assertion from signed data/.test(message)) return signatureRefusal(xml, config);
  if (/decryption key/i.test(message))
    return new SsoRefused("invalid_response", "Encrypted assertions are not supported: turn assertion encryption off at the IdP");
  if (/Missing SAML assertion/.test(message)) return new SsoRefused("invalid_response", "The Response carries no assertion");
  return new SsoRefused("invalid_response", "The SAMLResponse could not be read as a SAML sign-in response");
}

/**
 * Validates a posted SAMLResponse for one provider. `expectedRequestId` is the ID of the
 * AuthnRequest we issued (from the pending request found through RelayState), or null when none
 * was found; a response answering any other request is `unknown_request`, an unsolicited one is
 * accepted only when the provider allows IdP-initiated sign-in.
 */
export async function validateSamlResponse(
  db: Tx,
  config: SamlProviderConfig,
  samlResponse: string,
  expectedRequestId: string | null,
  options: ValidateOptions = {},
): Promise<SamlValidation> {
  const xml = decode(samlResponse);
  const envelope = envelopeOf(xml);
  let profile: Profile | null;
  try {
    ({ profile } = await samlClient(config).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw refusalOf(error, xml, config);
  }
  const assertion = (profile?.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  if (!profile || !assertion) throw new SsoRefused("invalid_response", "The SAMLResponse is not a sign-in response");

  const now = options.now ?? clock.now();
  const facts = checkAssertion(assertion, envelope, config, now, options.skewSeconds ?? env().SSO_CLOCK_SKEW_SECONDS);
  if (facts.inResponseTo === null) {
    if (!config.allowIdpInitiated) {
      throw new SsoRefused(
        "idp_initiated",
        "The IdP sent an unsolicited (IdP-initiated) response and this provider does not allow IdP-initiated sign-in",
      );
    }
  } else if (facts.inResponseTo !== expectedRequestId) {
    throw new SsoRefused("unknown_request", "The response answers a request we did not issue, or one already used or expired");
  }
  const result = samlProfile(profile);
  if (!(await claimAssertion(db, config.providerId, facts.assertionId, facts.acceptableUntil))) {
    throw new SsoRefused("replay", "This assertion was already used");
  }
  return { profile: result, inResponseTo: facts.inResponseTo, assertionId: facts.assertionId, authenticatedAt: facts.authenticatedAt };
}
