/**
 * The replay cache, in Postgres so that every instance sees every accepted assertion. The insert
 * is the check: of two instances racing with the same assertion, exactly one inserts.
 */
import type { Tx } from "../../db/client.ts";
import { clock } from "../../clock.ts";

/**
 * Records an assertion ID as used; false when it already was (and has not expired). A row left
 * behind by an expired assertion (not yet purged) is taken over, as that assertion is dead.
 */
export async function claimAssertion(db: Tx, providerId: string, assertionId: string, acceptableUntil: Date): Promise<boolean> {
  const now = clock.now();
  const claimed = await db.$executeRaw`
    INSERT INTO sso_saml_assertions (provider_id, assertion_id, expires_at)
    VALUES (${providerId}::uuid, ${assertionId}, ${acceptableUntil})
    ON CONFLICT (provider_id, assertion_id) DO UPDATE SET expires_at = EXCLUDED.expires_at, created_at = ${now}
    WHERE sso_saml_assertions.expires_at <= ${now}`;
  return claimed === 1;
}

/** Housekeeping: drops the IDs of assertions that can no longer be accepted. */
export async function purgeExpiredAssertions(db: Tx): Promise<number> {
  return db.ssoSamlAssertion.deleteMany({ where: { expiresAt: { lte: clock.now() } } }).then((r) => r.count);
}
