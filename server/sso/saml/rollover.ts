/**
 * Signing-certificate rollover without an outage. IdPs publish the next certificate in their
 * metadata before they sign with it; if they switch before our stored copy was refreshed, the
 * first response signed with the new key is refused as `certificate`. Then the metadata is
 * fetched again (at most once per provider per window, whatever is posted to the ACS: a stranger
 * cannot make us fetch in a loop) and, if it lists a certificate we did not have, the response is
 * validated once more. A failed fetch keeps the stored metadata: a flaky IdP cannot unconfigure us.
 * An uploaded document has nothing to fetch: its new certificate comes with a new upload.
 */
import type { Database } from "../../db/client.ts";
import { clock } from "../../clock.ts";
import { log } from "../../log.ts";
import { checkMetadata, type MetadataDetails } from "../metadata.ts";
import { loadSamlConfig } from "./config.ts";
import { SsoRefused } from "../signin/protocol.ts";
import { validateSamlResponse, type SamlValidation } from "./validate.ts";

export const ROLLOVER_REFETCH_INTERVAL_MS = 5 * 60_000;

/** Re-fetches the provider's metadata if no check ran within the window; true if it brought a new certificate. */
export async function refetchForRollover(db: Database, providerId: string): Promise<boolean> {
  const now = clock.now();
  const claimed = await db.prisma.ssoProvider.updateMany({
    where: { id: providerId, metadataCheckedAt: { lt: new Date(now.getTime() - ROLLOVER_REFETCH_INTERVAL_MS) } },
    data: { metadataCheckedAt: now },
  });
  if (claimed.count === 0) return false;
  const row = await db.prisma.ssoProvider.findUnique({ where: { id: providerId } });
  if (!row?.metadataUrl || row.metadataXml !== null) return false;
  const result = await checkMetadata(row.providerType, row.metadataUrl);
  if (result.status !== "valid") {
    log.warn("saml metadata re-fetch for a certificate rollover failed", { provider_id: providerId, status: result.status });
    return false;
  }
  await db.prisma.ssoProvider.updateMany({
    where: { id: providerId, metadataUrl: row.metadataUrl },
    data: { metadataStatus: "valid", metadataError: null, metadataDetails: result.details as object, metadataCheckedAt: clock.now() },
  });
  const known = new Set((row.metadataDetails as MetadataDetails | null)?.signing_certificates ?? []);
  return (result.details.signing_certificates ?? []).some((c) => !known.has(c));
}

/** Validates a posted SAMLResponse for a provider, with one re-fetch of its metadata on an unknown certificate. */
export async function validateForProvider(
  db: Database,
  provider: { id: string; allowIdpInitiated: boolean },
  samlResponse: string,
  expectedRequestId: string | null,
): Promise<SamlValidation> {
  const config = await loadSamlConfig(db.prisma, provider);
  try {
    return await validateSamlResponse(db.prisma, config, samlResponse, expectedRequestId);
  } catch (error) {
    if (!(error instanceof SsoRefused && error.reason === "certificate") || !(await refetchForRollover(db, provider.id))) throw error;
    log.info("saml metadata re-fetched: the IdP signs with a new certificate", { provider_id: provider.id });
    return validateSamlResponse(db.prisma, await loadSamlConfig(db.prisma, provider), samlResponse, expectedRequestId);
  }
}
