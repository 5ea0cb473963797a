/**
 * Periodic work of SSO (server/jobs): metadata checks left pending, grants past their use, and
 * SAML certificates near their end.
 */
import { HOUR, MINUTE, type Job } from "../jobs/job.ts";
import { recheckStalePending } from "./checks.ts";
import { announceExpiringCertificates } from "./certificates.ts";
import { purgeExpiredAssertions } from "./saml/replay.ts";
import { purgeExpiredSignIns } from "./signin/pending.ts";
import { purgeExpiredBrokerGrants } from "./broker/grants.ts";

export const ssoJobs: Job[] = [
  { name: "sso.metadata_recheck", every: MINUTE, run: async (db) => ({ sso_metadata_rechecked: await recheckStalePending(db) }) },
  {
    name: "sso.saml_assertions_purge",
    every: MINUTE,
    run: async (db) => ({ saml_assertions_purged: await purgeExpiredAssertions(db.prisma) }),
  },
  { name: "sso.signin_requests_purge", every: MINUTE, run: async (db) => ({ sso_signin_requests_purged: await purgeExpiredSignIns(db) }) },
  /** The OAuth broker's expired authorization codes and access tokens. */
  { name: "sso.broker_grants_purge", every: MINUTE, run: async (db) => ({ sso_broker_grants_purged: await purgeExpiredBrokerGrants(db) }) },
  /** `sso_provider.certificate_expiring` at 30 days, 7 and expiry, once each per certificate. */
  {
    name: "sso.certificate_expiry",
    every: HOUR,
    run: async (db) => ({ sso_certificates_announced: await announceExpiringCertificates(db) }),
  },
];
