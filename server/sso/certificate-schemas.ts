/**
 * SAML signing certificates near their end: the thresholds announced, and the operators' list of
 * expiring certificates (GET /sso-certificates/expiring). Pure zod, shared with the console.
 */
import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { PROVIDER_TYPES } from "./schemas.ts";

/**
 * Days before a certificate's end at which `sso_provider.certificate_expiring` is emitted, once
 * each per certificate; `0` once it has expired.
 */
export const CERTIFICATE_THRESHOLDS = [30, 7, 0] as const;
export type CertificateThreshold = (typeof CERTIFICATE_THRESHOLDS)[number];

/** The first threshold announced, and the default window of the operators' list. */
export const CERTIFICATE_WARNING_DAYS = CERTIFICATE_THRESHOLDS[0];
/** Inside this many days the warning turns to danger (banner, list). */
export const CERTIFICATE_URGENT_DAYS = CERTIFICATE_THRESHOLDS[1];

export const MAX_WITHIN_DAYS = 365;

export const ListExpiringCertificatesInput = PageQuery.extend({
  within_days: z.coerce
    .number({ error: `must be an integer from 0 to ${MAX_WITHIN_DAYS}` })
    .int(`must be an integer from 0 to ${MAX_WITHIN_DAYS}`)
    .min(0, `must be an integer from 0 to ${MAX_WITHIN_DAYS}`)
    .max(MAX_WITHIN_DAYS, `must be an integer from 0 to ${MAX_WITHIN_DAYS}`)
    .optional()
    .meta({
      description: `Certificates ending within this many days from now (already expired ones included); default ${CERTIFICATE_WARNING_DAYS}.`,
      default: CERTIFICATE_WARNING_DAYS,
    }),
});
export type ListExpiringCertificatesInput = z.infer<typeof ListExpiringCertificatesInput>;

export const ExpiringCertificate = z
  .object({
    tenant_id: z.uuid(),
    tenant_name: z.string(),
    provider_id: z.uuid(),
    provider_name: z.string(),
    provider_type: z.enum(PROVIDER_TYPES),
    certificate_expires_at: z.iso.datetime().meta({ description: "The earliest notAfter of the provider's SAML signing certificates." }),
    days_left: z.number().int().meta({ description: "Whole days until then (rounded down); negative once expired." }),
  })
  .meta({ id: "ExpiringCertificate", description: "An enabled SAML provider whose signing certificate ends soon." });
export type ExpiringCertificate = z.infer<typeof ExpiringCertificate>;

export const ExpiringCertificatePage = pageOf(ExpiringCertificate).meta({ id: "ExpiringCertificatePage" });
