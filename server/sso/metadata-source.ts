/**
 * Where a provider's metadata comes from: a URL (fetched and checked after the change commits,
 * ./checks.ts) or an uploaded SAML document (`metadata_xml`: IdPs behind a firewall, Google
 * Workspace, which hands out a file), read when it is given with the parser and limits of a
 * fetched one (./metadata.ts): a document that is not usable IdP metadata is a 400 naming the
 * field. Exactly one of the two is stored. The document is never echoed back or audited in full:
 * the trail gets its source and its SHA-256.
 */
import { createHash } from "node:crypto";
import { clock } from "../clock.ts";
import { InvalidField } from "../errors.ts";
import type { Changes } from "../events/patch-events.ts";
import { assertOutboundUrl } from "../outbound/url-policy.ts";
import { fixedProtocol, guessProtocol, readMetadataXml, type MetadataDetails } from "./metadata.ts";
import type { MetadataSource } from "./schemas.ts";

interface Given {
  metadata_url?: string;
  metadata_xml?: string;
}

/** A document read and found usable: what it says. */
export interface Upload {
  xml: string;
  details: MetadataDetails;
}

export const sourceOf = (row: { metadataXml: string | null }): MetadataSource => (row.metadataXml !== null ? "xml" : "url");

export const documentHash = (xml: string) => createHash("sha256").update(xml, "utf8").digest("hex");

/** SAML only: an OIDC provider reads its discovery document from a URL. */
export function assertUploadAllowed(providerType: string, input: Given) {
  if (input.metadata_xml !== undefined && fixedProtocol(providerType) === "oidc") {
    throw InvalidField("metadata_xml", "is only for SAML providers: an OIDC provider's discovery document is read from metadata_url");
  }
}

/** Not both at once; the URL's policy checked, the document read (400 naming the field). */
export function readGiven(input: Given): Upload | null {
  if (input.metadata_url !== undefined && input.metadata_xml !== undefined) {
    throw InvalidField("metadata_xml", "give either metadata_url or metadata_xml, not both");
  }
  assertOutboundUrl("metadata_url", input.metadata_url);
  if (input.metadata_xml === undefined) return null;
  const result = readMetadataXml(input.metadata_xml);
  if (result.status !== "valid") throw InvalidField("metadata_xml", `is not usable SAML identity-provider metadata: ${result.error}`);
  return { xml: input.metadata_xml, details: result.details };
}

/** The stored columns of a source: a document is valid as read now; a URL waits for its check. */
export function sourceColumns(providerType: string, source: { upload: Upload } | { url: string }) {
  if ("upload" in source) {
    return {
      metadataUrl: null,
      metadataXml: source.upload.xml,
      metadataStatus: "valid",
      metadataError: null,
      metadataCheckedAt: clock.now(),
      metadataDetails: source.upload.details as object,
      protocol: "saml",
    };
  }
  return {
    metadataUrl: source.url,
    metadataXml: null,
    metadataStatus: "pending",
    metadataError: null,
    metadataCheckedAt: null,
    metadataDetails: {},
    protocol: guessProtocol(providerType, source.url),
  };
}

/** A create's source: exactly one of the two (400 naming the field otherwise). */
export function createSource(providerType: string, input: Given) {
  assertUploadAllowed(providerType, input);
  const upload = readGiven(input);
  if (upload)
    return {
      columns: sourceColumns(providerType, { upload }),
      audit: { metadata_source: "xml", metadata_sha256: documentHash(upload.xml) },
    };
  if (input.metadata_url === undefined) throw InvalidField("metadata_url", "is required (or metadata_xml: the IdP's metadata document)");
  return { columns: sourceColumns(providerType, { url: input.metadata_url }), audit: { metadata_source: "url" } };
}

/**
 * What a PATCH does to the source: the changed fields (a new document is a change of
 * `metadata_xml` recorded as source from/to and the new document's hash), and the columns to
 * store, or null when the source stays as it is.
 */
export function sourceMove(
  current: { providerType: string; metadataUrl: string | null; metadataXml: string | null },
  input: Given,
  upload: Upload | null,
): { changes: Changes; columns: ReturnType<typeof sourceColumns> | null } {
  const changes: Changes = {};
  const from = sourceOf(current);
  if (upload && upload.xml !== current.metadataXml) {
    if (current.metadataUrl !== null) changes.metadata_url = { from: current.metadataUrl, to: null };
    const change = { from, to: "xml", sha256: documentHash(upload.xml) };
    changes.metadata_xml = change;
    return { changes, columns: sourceColumns(current.providerType, { upload }) };
  }
  if (input.metadata_url !== undefined && input.metadata_url !== current.metadataUrl) {
    changes.metadata_url = { from: current.metadataUrl, to: input.metadata_url };
    if (from === "xml") changes.metadata_xml = { from, to: "url" };
    return { changes, columns: sourceColumns(current.providerType, { url: input.metadata_url }) };
  }
  return { changes, columns: null };
}
