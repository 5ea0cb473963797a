/**
 * Reading an identity provider's metadata: a SAML EntityDescriptor (XML) or an OpenID discovery
 * document (JSON). Parsing never trusts the document: DTDs are refused outright (no XXE, no entity
 * expansion), sizes are capped (by the fetch; an uploaded document by its length, the same 1 MiB),
 * and every failure becomes a status with a reason.
 */
import { X509Certificate } from "node:crypto";
import { XMLParser } from "fast-xml-parser";
import { OutboundError, safeFetch } from "../outbound/guard.ts";
import { MAX_METADATA_BYTES } from "./schemas.ts";

export type MetadataStatus = "pending" | "valid" | "invalid" | "unreachable";

export interface MetadataDetails {
  entity_id?: string;
  issuer?: string;
  sso_url?: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  jwks_uri?: string;
  certificate_expires_at?: string;
  certificates?: number;
  /** SAML: every signing certificate listed (base64 DER), so a rollover's new one is already trusted. */
  signing_certificates?: string[];
  /** SAML: how `sso_url` takes an AuthnRequest (HTTP-Redirect preferred; some IdPs offer only HTTP-POST). */
  sso_binding?: "redirect" | "post";
}

export type Protocol = "saml" | "oidc";

export interface MetadataResult {
  status: Exclude<MetadataStatus, "pending">;
  error: string | null;
  details: MetadataDetails;
  /** The protocol the document is for, when it could be told (always, for a readable document). */
  protocol?: Protocol;
}

/** `saml` and `oidc` are what they say; Entra ID and Google Workspace offer both. */
export function fixedProtocol(providerType: string): Protocol | null {
  return providerType === "saml" ? "saml" : providerType === "oidc" ? "oidc" : null;
}

/** Before the document is read: the type's protocol, else what the URL looks like. */
export function guessProtocol(providerType: string, metadataUrl: string): Protocol {
  return fixedProtocol(providerType) ?? (/\/\.well-known\/openid-configuration/i.test(metadataUrl) ? "oidc" : "saml");
}

/** What a document is: JSON is a discovery document, XML is SAML metadata. */
function sniffProtocol(body: string): Protocol {
  const first = body.trimStart()[0];
  if (first === "{") return "oidc";
  if (first === "<") return "saml";
  throw new InvalidMetadata("neither SAML metadata (XML) nor an OpenID discovery document (JSON)");
}

const METADATA_TIMEOUT_MS = 5_000;
const METADATA_MAX_BYTES = MAX_METADATA_BYTES;

class InvalidMetadata extends Error {}

type Node = Record<string, unknown>;

const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : value && typeof value === "object" && "#text" in value ? String((value as Node)["#text"]) : undefined;

export function parseSamlMetadata(xml: string): MetadataDetails {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new InvalidMetadata("DTDs and entity declarations are not allowed in metadata");
  let doc: Node;
  try {
    doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      removeNSPrefix: true,
      processEntities: false,
      parseTagValue: false,
      trimValues: true,
    }).parse(xml, true) as Node;
  } catch (error) {
    throw new InvalidMetadata(`not well-formed XML: ${(error as Error).message.split("\n")[0]}`);
  }
  const entities = (doc.EntitiesDescriptor as Node | undefined)?.EntityDescriptor ?? doc.EntityDescriptor;
  const all = asArray(entities as Node | Node[]);
  // In an EntitiesDescriptor the IdP need not come first (federations list SPs too).
  const entity = all.find((e) => e.IDPSSODescriptor !== undefined) ?? all[0];
  if (!entity) throw new InvalidMetadata("no EntityDescriptor element");
  const entityId = entity["@_entityID"];
  if (typeof entityId !== "string" || !entityId) throw new InvalidMetadata("EntityDescriptor has no entityID");
  const idp = asArray(entity.IDPSSODescriptor as Node | Node[])[0];
  if (!idp) throw new InvalidMetadata("no IDPSSODescriptor: this is not identity-provider metadata");

  const services = asArray(idp.SingleSignOnService as Node | Node[]);
  const preferred =
    services.find((s) => String(s["@_Binding"]).endsWith("HTTP-Redirect")) ??
    services.find((s) => String(s["@_Binding"]).endsWith("HTTP-POST")) ??
    services[0];
  const ssoUrl = preferred?.["@_Location"];
  if (typeof ssoUrl !== "string" || !ssoUrl) throw new InvalidMetadata("no SingleSignOnService Location");
  const binding = String(preferred?.["@_Binding"]);

  const certificates: X509Certificate[] = [];
  const encoded = new Set<string>();
  for (const key of asArray(idp.KeyDescriptor as Node | Node[])) {
    if (key["@_use"] && key["@_use"] !== "signing") continue;
    const data = asArray((key.KeyInfo as Node | undefined)?.X509Data as Node | Node[]);
    for (const x509 of data.flatMap((d) => asArray(d.X509Certificate as unknown))) {
      const base64 = text(x509)?.replace(/\s+/g, "");
      if (!base64 || encoded.has(base64)) continue;
      encoded.add(base64);
      try {
        certificates.push(new X509Certificate(Buffer.from(base64, "base64")));
      } catch {
        throw new InvalidMetadata("a signing certificate is not a valid X.509 certificate");
      }
    }
  }
  if (certificates.length === 0) throw new InvalidMetadata('no signing certificate (KeyDescriptor use="signing")');
  const earliest = certificates.map((c) => new Date(c.validTo)).sort((a, b) => a.getTime() - b.getTime())[0]!;
  return {
    entity_id: entityId,
    sso_url: ssoUrl,
    ...(binding.endsWith("HTTP-Redirect")
      ? { sso_binding: "redirect" as const }
      : binding.endsWith("HTTP-POST")
        ? { sso_binding: "post" as const }
        : {}),
    certificate_expires_at: earliest.toISOString(),
    certificates: certificates.length,
    signing_certificates: certificates.map((c) => c.raw.toString("base64")),
  };
}

function parseOidcDiscovery(body: string): MetadataDetails {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new InvalidMetadata("the discovery document is not JSON");
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new InvalidMetadata("the discovery document is not a JSON object");
  const d = doc as Record<string, unknown>;
  const required = ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"] as const;
  const missing = required.filter((k) => typeof d[k] !== "string" || !(d[k] as string));
  if (missing.length) throw new InvalidMetadata(`missing ${missing.join(", ")}`);
  for (const key of required) {
    try {
      new URL(d[key] as string);
    } catch {
      throw new InvalidMetadata(`${key} is not a URL`);
    }
  }
  return {
    issuer: d.issuer as string,
    sso_url: d.authorization_endpoint as string,
    authorization_endpoint: d.authorization_endpoint as string,
    token_endpoint: d.token_endpoint as string,
    jwks_uri: d.jwks_uri as string,
  };
}

const ACCEPT = {
  saml: "application/samlmetadata+xml, application/xml, text/xml",
  oidc: "application/json",
  either: "application/json, application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.9",
};

/** Fetches and reads the metadata of a provider type; never throws. */
export async function checkMetadata(providerType: string, metadataUrl: string): Promise<MetadataResult> {
  try {
    const res = await safeFetch(metadataUrl, {
      timeoutMs: METADATA_TIMEOUT_MS,
      maxBytes: METADATA_MAX_BYTES,
      headers: { accept: ACCEPT[fixedProtocol(providerType) ?? "either"] },
    });
    if (res.status < 200 || res.status >= 300)
      return { status: "unreachable", error: `the server answered HTTP ${res.status}`, details: {} };
    const body = res.body.toString("utf8");
    const protocol = fixedProtocol(providerType) ?? sniffProtocol(body);
    const details = protocol === "saml" ? parseSamlMetadata(body) : parseOidcDiscovery(body);
    return { status: "valid", error: null, details, protocol };
  } catch (error) {
    if (error instanceof InvalidMetadata) return { status: "invalid", error: error.message, details: {} };
    if (error instanceof OutboundError) {
      return { status: error.kind === "too_large" ? "invalid" : "unreachable", error: error.message, details: {} };
    }
    return { status: "unreachable", error: "the metadata could not be fetched", details: {} };
  }
}

/**
 * Reads an uploaded SAML metadata document (`metadata_xml`) with the parser and the limits of a
 * fetched one; never throws. Housekeeping and refreshes read the stored document the same way
 * (its certificate expiry is evaluated again), and never fetch anything for it.
 */
export function readMetadataXml(xml: string): MetadataResult {
  if (Buffer.byteLength(xml, "utf8") > METADATA_MAX_BYTES) {
    return { status: "invalid", error: `the document is larger than ${METADATA_MAX_BYTES} bytes`, details: {} };
  }
  try {
    return { status: "valid", error: null, details: parseSamlMetadata(xml), protocol: "saml" };
  } catch (error) {
    if (error instanceof InvalidMetadata) return { status: "invalid", error: error.message, details: {} };
    return { status: "invalid", error: "the document could not be read", details: {} };
  }
}

/** A provider's metadata from where it comes: its stored document, else its URL (fetched). */
export async function checkProviderMetadata(provider: {
  providerType: string;
  metadataUrl: string | null;
  metadataXml: string | null;
}): Promise<MetadataResult> {
  if (provider.metadataXml !== null) return readMetadataXml(provider.metadataXml);
  if (provider.metadataUrl === null) return { status: "invalid", error: "the provider has no metadata", details: {} };
  return checkMetadata(provider.providerType, provider.metadataUrl);
}
