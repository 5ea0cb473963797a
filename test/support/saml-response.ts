/**
 * SAML 2.0 Responses as an identity provider issues them, signed with xml-crypto (the XML
 * signature library node-saml itself verifies with), plus the ways an attacker or a misconfigured
 * IdP gets them wrong: unsigned, another key, tampered after signing, and signature-wrapping (XSW).
 */
import { randomBytes } from "node:crypto";
import { DOMParser, XMLSerializer, type Element } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import type { KeyAndCertificate } from "./x509.ts";

const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
const ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion";
export const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

export type Signing = "response" | "assertion" | "both" | "none";
export type Xsw = "sibling" | "wrap" | "extensions" | "response-wrap";

export interface ResponseOptions {
  issuer: string;
  /** Our entity ID, in AudienceRestriction. */
  audience: string;
  /** Our ACS URL: the Response's Destination and the bearer confirmation's Recipient. */
  acsUrl: string;
  destination?: string;
  recipient?: string;
  /** The AuthnRequest ID answered; null for an IdP-initiated (unsolicited) response. */
  inResponseTo: string | null;
  nameId: string;
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
  /** Defaults: now - 1 min, now + 5 min. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
  /** When the person authenticated at the IdP (AuthnInstant; default now); null leaves the AuthnStatement out. */
  authnInstant?: Date | null;
  signing?: Signing;
  key: KeyAndCertificate;
  /** Changes the NameID after signing (the signature no longer matches). */
  tamper?: boolean;
  xsw?: Xsw;
  /** A failure status (e.g. "urn:oasis:names:tc:SAML:2.0:status:Responder") and message: no assertion then. */
  status?: { code: string; message: string };
}

export const newId = () => `_${randomBytes(20).toString("hex")}`;

const esc = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function attributeStatement(attributes: Record<string, string | string[]>): string {
  const entries = Object.entries(attributes);
  if (entries.length === 0) return "";
  const body = entries
    .map(([name, value]) => {
      const values = (Array.isArray(value) ? value : [value]).map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`).join("");
      return `<saml:Attribute Name="${esc(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified">${values}</saml:Attribute>`;
    })
    .join("");
  return `<saml:AttributeStatement>${body}</saml:AttributeStatement>`;
}

function authnStatement(at: Date | null, sessionIndex: string): string {
  if (at === null) return "";
  return (
    `<saml:AuthnStatement AuthnInstant="${at.toISOString()}" SessionIndex="${sessionIndex}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>`
  );
}

export function responseXml(options: ResponseOptions, ids: { response: string; assertion: string }): string {
  const now = new Date();
  const notBefore = options.notBefore ?? new Date(now.getTime() - 60_000);
  const notOnOrAfter = options.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
  const inResponseTo = options.inResponseTo ? ` InResponseTo="${esc(options.inResponseTo)}"` : "";
  const instant = now.toISOString();
  if (options.status) {
    return (
      `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${ids.response}" Version="2.0" IssueInstant="${instant}"` +
      ` Destination="${esc(options.destination ?? options.acsUrl)}"${inResponseTo}>` +
      `<saml:Issuer>${esc(options.issuer)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="${esc(options.status.code)}"/><samlp:StatusMessage>${esc(options.status.message)}</samlp:StatusMessage></samlp:Status>` +
      `</samlp:Response>`
    );
  }
  return (
    `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${ids.response}" Version="2.0" IssueInstant="${instant}"` +
    ` Destination="${esc(options.destination ?? options.acsUrl)}"${inResponseTo}>` +
    `<saml:Issuer>${esc(options.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion xmlns:saml="${ASSERTION}" ID="${ids.assertion}" Version="2.0" IssueInstant="${instant}">` +
    `<saml:Issuer>${esc(options.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${esc(options.nameIdFormat ?? EMAIL_FORMAT)}">${esc(options.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter.toISOString()}" Recipient="${esc(options.recipient ?? options.acsUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore.toISOString()}" NotOnOrAfter="${notOnOrAfter.toISOString()}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    authnStatement(options.authnInstant === undefined ? now : options.authnInstant, ids.assertion) +
    attributeStatement(options.attributes ?? {}) +
    `</saml:Assertion></samlp:Response>`
  );
}

/** Enveloped RSA-SHA256 signature over the element with this ID, placed after its Issuer (schema order). */
export function signElement(xml: string, id: string, key: KeyAndCertificate): string {
  const signer = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.certificatePem,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  signer.addReference({
    xpath: `//*[@ID='${id}']`,
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  signer.computeSignature(xml, {
    prefix: "ds",
    location: { reference: `//*[@ID='${id}']/*[local-name(.)='Issuer']`, action: "after" },
  });
  return signer.getSignedXml();
}

const parse = (xml: string) => new DOMParser().parseFromString(xml, "text/xml");
const serialize = (node: unknown) => new XMLSerializer().serializeToString(node as Element);
const child = (parent: Element, localName: string) =>
  Array.from(parent.childNodes).find((n) => (n as Element).localName === localName) as Element | undefined;

/** Rewrites the NameID of the (first) assertion, leaving signatures as they were. */
function tamper(xml: string, nameId: string): string {
  const doc = parse(xml);
  const nameIdNode = doc.getElementsByTagNameNS(ASSERTION, "NameID")[0]!;
  nameIdNode.textContent = nameId;
  return serialize(doc);
}

/**
 * Signature wrapping: the signed content stays intact (so the signature itself verifies) while an
 * attacker's assertion, naming `evilNameId`, is placed where a careless SP would read it.
 */
function wrap(xml: string, variant: Xsw, evilNameId: string): string {
  const doc = parse(xml);
  const response = doc.documentElement!;
  const signed = child(response, "Assertion")!;
  const evil = signed.cloneNode(true) as Element;
  evil.setAttribute("ID", newId());
  const evilSignature = child(evil, "Signature");
  evil.getElementsByTagNameNS(ASSERTION, "NameID")[0]!.textContent = evilNameId;
  switch (variant) {
    case "sibling": // XSW3: an unsigned assertion before the signed one
      if (evilSignature) evil.removeChild(evilSignature);
      response.insertBefore(evil, signed);
      break;
    case "wrap": // XSW4: the signed assertion inside the attacker's
      if (evilSignature) evil.removeChild(evilSignature);
      response.replaceChild(evil, signed);
      evil.appendChild(signed);
      break;
    case "extensions": {
      // XSW5-ish: the signed assertion moved into the Response's Extensions, the attacker's in its place
      if (evilSignature) evil.removeChild(evilSignature);
      response.replaceChild(evil, signed);
      const extensions = doc.createElementNS(PROTOCOL, "samlp:Extensions");
      extensions.appendChild(signed);
      response.insertBefore(extensions, child(response, "Status")!);
      break;
    }
    case "response-wrap": {
      // XSW1/2-ish: a new, unsigned Response around the signed one (kept whole in Extensions).
      // Copying the signature into the new root as well is refused by xml-crypto itself
      // (duplicate SignatureValue), so the wrapper carries none.
      const evilResponse = response.cloneNode(false) as Element;
      evilResponse.setAttribute("ID", newId());
      for (const node of Array.from(response.childNodes)) {
        const localName = (node as Element).localName;
        if (localName === "Signature") continue;
        evilResponse.appendChild(localName === "Assertion" ? evil : node.cloneNode(true));
      }
      if (evilSignature) evil.removeChild(evilSignature);
      const extensions = doc.createElementNS(PROTOCOL, "samlp:Extensions");
      extensions.appendChild(response.cloneNode(true));
      evilResponse.insertBefore(extensions, child(evilResponse, "Status")!);
      return serialize(evilResponse);
    }
  }
  return serialize(doc);
}

/** A Response as XML text, signed as asked, then damaged as asked. */
export function buildResponse(options: ResponseOptions): { xml: string; assertionId: string; responseId: string } {
  const ids = { response: newId(), assertion: options.assertionId ?? newId() };
  const signing = options.signing ?? "response";
  let xml = responseXml(options, ids);
  if (!options.status && (signing === "assertion" || signing === "both")) xml = signElement(xml, ids.assertion, options.key);
  if (signing === "response" || signing === "both") xml = signElement(xml, ids.response, options.key);
  if (options.tamper) xml = tamper(xml, `attacker-${options.nameId}`);
  if (options.xsw) xml = wrap(xml, options.xsw, `attacker-${options.nameId}`);
  return { xml, assertionId: ids.assertion, responseId: ids.response };
}

/**
 * How many of the document's signatures verify with this certificate, each over the element its
 * reference names (what a naive SP checks): a wrapped document still has one, which is the point.
 */
export function verifyingSignatures(xml: string, certificatePem: string): number {
  const doc = parse(xml);
  let count = 0;
  for (const signature of Array.from(doc.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature"))) {
    const verifier = new SignedXml({ publicCert: certificatePem });
    verifier.loadSignature(serialize(signature));
    try {
      if (verifier.checkSignature(xml)) count++;
    } catch {
      // a broken reference does not verify
    }
  }
  return count;
}

export const toBase64 = (xml: string) => Buffer.from(xml, "utf8").toString("base64");
