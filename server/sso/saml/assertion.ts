/**
 * The checks on a verified assertion that decide whether it is for us, now: Issuer, validity
 * window (with SSO_CLOCK_SKEW_SECONDS), Audience, the bearer confirmation's Recipient, and which
 * request it answers. They read only the assertion node-saml verified (never the rest of the
 * document, which an attacker controls when only the Assertion is signed); the Response's own
 * Destination and InResponseTo, unsigned in that case, must merely agree with it.
 */
import { SsoRefused } from "../signin/protocol.ts";
import type { SamlProviderConfig } from "./config.ts";

/** xml2js shape node-saml parses the verified assertion into: children in arrays, `$` attributes, `_` text. */
export interface XmlNode {
  $?: Record<string, string>;
  _?: string;
  [child: string]: XmlNode[] | Record<string, string> | string | undefined;
}

const children = (node: XmlNode | undefined, name: string): XmlNode[] => {
  const value = node?.[name];
  return Array.isArray(value) ? value : [];
};
const first = (node: XmlNode | undefined, name: string) => children(node, name)[0];
const attr = (node: XmlNode | undefined, name: string) => node?.$?.[name];
export const textOf = (node: XmlNode | undefined) => (typeof node === "string" ? node : node?._)?.trim();

export interface AssertionFacts {
  assertionId: string;
  /** The AuthnRequest ID answered (signed, from SubjectConfirmationData); null when IdP-initiated. */
  inResponseTo: string | null;
  /** Until when the assertion could be accepted: its earliest NotOnOrAfter plus the skew. */
  acceptableUntil: Date;
  /**
   * When the IdP says the person authenticated (the AuthnStatements' AuthnInstant, the earliest
   * when there are several); null when it does not say. A step-up needs it (../signin/reauthentication.ts).
   */
  authenticatedAt: Date | null;
}

export interface ResponseEnvelope {
  destination: string | null;
  inResponseTo: string | null;
}

function instant(value: string | undefined, what: string): number | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new SsoRefused("invalid_response", `${what} is not a valid time`);
  return ms;
}

function checkWindow(now: number, skewMs: number, notBefore: number | null, notOnOrAfter: number | null, what: string) {
  if (notBefore !== null && now + skewMs < notBefore) {
    throw new SsoRefused(
      "clock",
      `The ${what} is not valid until ${new Date(notBefore).toISOString()} (clock skew allowed: ${skewMs / 1000} s)`,
    );
  }
  if (notOnOrAfter !== null && now - skewMs >= notOnOrAfter) {
    throw new SsoRefused(
      "clock",
      `The ${what} expired at ${new Date(notOnOrAfter).toISOString()} (clock skew allowed: ${skewMs / 1000} s)`,
    );
  }
}

export function checkAssertion(
  assertion: XmlNode,
  envelope: ResponseEnvelope,
  config: SamlProviderConfig,
  now: Date,
  skewSeconds: number,
): AssertionFacts {
  const skewMs = skewSeconds * 1000;
  const nowMs = now.getTime();
  const assertionId = attr(assertion, "ID");
  if (!assertionId) throw new SsoRefused("invalid_response", "The assertion has no ID");

  const issuer = textOf(first(assertion, "Issuer"));
  if (issuer !== config.idpEntityId) {
    throw new SsoRefused(
      "issuer",
      `The assertion's Issuer is ${issuer ? `"${issuer}"` : "missing"}, not the provider's entity ID "${config.idpEntityId}"`,
    );
  }

  const conditions = children(assertion, "Conditions");
  if (conditions.length > 1) throw new SsoRefused("invalid_response", "The assertion has more than one Conditions element");
  const condition = conditions[0];
  const conditionsUntil = instant(attr(condition, "NotOnOrAfter"), "Conditions NotOnOrAfter");
  checkWindow(nowMs, skewMs, instant(attr(condition, "NotBefore"), "Conditions NotBefore"), conditionsUntil, "assertion");

  // Every AudienceRestriction must name us (SAML core 2.5.1.4: they are ANDed).
  const restrictions = children(condition, "AudienceRestriction");
  if (restrictions.length === 0) throw new SsoRefused("audience", "The assertion has no AudienceRestriction");
  for (const restriction of restrictions) {
    const audiences = children(restriction, "Audience").map(textOf);
    if (!audiences.includes(config.sp.entity_id)) {
      throw new SsoRefused(
        "audience",
        `The assertion is for ${audiences.map((a) => `"${a}"`).join(", ") || "no audience"}, not "${config.sp.entity_id}"`,
      );
    }
  }

  if (envelope.destination !== null && envelope.destination !== config.sp.acs_url) {
    throw new SsoRefused("destination", `The Response's Destination is "${envelope.destination}", not our ACS URL "${config.sp.acs_url}"`);
  }
  const subject = first(assertion, "Subject");
  const bearers = children(subject, "SubjectConfirmation").filter((c) => attr(c, "Method") === "urn:oasis:names:tc:SAML:2.0:cm:bearer");
  if (bearers.length === 0) throw new SsoRefused("invalid_response", "The assertion has no bearer SubjectConfirmation");
  const data = bearers.map((b) => first(b, "SubjectConfirmationData"));
  const forUs = data.filter((d) => attr(d, "Recipient") === config.sp.acs_url);
  if (forUs.length === 0) {
    const recipients = data.map((d) => attr(d, "Recipient")).filter(Boolean);
    throw new SsoRefused(
      "destination",
      `The assertion's Recipient is ${recipients.map((r) => `"${r}"`).join(", ") || "missing"}, not our ACS URL "${config.sp.acs_url}"`,
    );
  }
  // The bearer confirmation's own window; the first one for us that is current is used.
  let confirmation: XmlNode | undefined;
  let confirmationUntil: number | null = null;
  let lastError: SsoRefused | undefined;
  for (const candidate of forUs) {
    const until = instant(attr(candidate, "NotOnOrAfter"), "SubjectConfirmationData NotOnOrAfter");
    try {
      checkWindow(nowMs, skewMs, instant(attr(candidate, "NotBefore"), "SubjectConfirmationData NotBefore"), until, "subject confirmation");
      confirmation = candidate;
      confirmationUntil = until;
      break;
    } catch (error) {
      lastError = error as SsoRefused;
    }
  }
  if (!confirmation) throw lastError!;

  const untils = [conditionsUntil, confirmationUntil].filter((v): v is number => v !== null);
  if (untils.length === 0) throw new SsoRefused("invalid_response", "The assertion has no NotOnOrAfter: it would be valid forever");

  const inResponseTo = attr(confirmation, "InResponseTo") ?? null;
  if (envelope.inResponseTo !== null && envelope.inResponseTo !== inResponseTo) {
    throw new SsoRefused(
      "unknown_request",
      inResponseTo === null
        ? "The Response names a request (InResponseTo) but its signed assertion does not"
        : "The Response's InResponseTo differs from its assertion's",
    );
  }
  return { assertionId, inResponseTo, acceptableUntil: new Date(Math.min(...untils) + skewMs), authenticatedAt: authnInstant(assertion) };
}

/** The earliest AuthnInstant of the signed assertion; null when a statement lacks one, or there is none. */
function authnInstant(assertion: XmlNode): Date | null {
  const instants = children(assertion, "AuthnStatement").map((s) => instant(attr(s, "AuthnInstant"), "AuthnStatement AuthnInstant"));
  if (instants.length === 0 || instants.some((i) => i === null)) return null;
  return new Date(Math.min(...(instants as number[])));
}
