/**
 * Our service-provider metadata for one SAML provider (what the customer's IdP admin uploads):
 * entity ID, the HTTP-POST ACS and the NameID format we prefer. Public: it holds no secret, and
 * IdPs fetch it without credentials.
 */
import { generateServiceProviderMetadata } from "@node-saml/node-saml";
import type { Tx } from "../../db/client.ts";
import { isUuid } from "../../db/ids.ts";
import { NotFound } from "../../errors.ts";
import { samlSpDetails } from "../sp.ts";
import { NAMEID_EMAIL } from "./config.ts";

/** `saml` providers, and Entra ID / Google Workspace ones whose metadata document was SAML. */
export function isSamlProvider(row: { protocol: string }): boolean {
  return row.protocol === "saml";
}

export function spMetadataXml(providerId: string, base?: string): string {
  const sp = samlSpDetails(providerId, base);
  return generateServiceProviderMetadata({
    issuer: sp.entity_id,
    callbackUrl: sp.acs_url,
    identifierFormat: NAMEID_EMAIL,
    // Asks IdPs that read it to sign the assertion; a signed Response alone is accepted too.
    wantAssertionsSigned: true,
    generateUniqueId: () => `_${providerId}`,
  });
}

/** The metadata XML of an existing SAML provider; not found for an unknown or non-SAML one. */
export async function samlSpMetadata(db: Tx, providerId: string): Promise<string> {
  const row = isUuid(providerId)
    ? await db.ssoProvider.findUnique({ where: { id: providerId }, select: { id: true, protocol: true } })
    : null;
  if (!row || !isSamlProvider(row)) throw NotFound("SAML provider");
  return spMetadataXml(row.id);
}
