-- What the certificate-expiry job last announced for a SAML provider (server/sso/certificates.ts):
-- {"expires_at": "<the certificate's notAfter>", "threshold": 30 | 7 | 0}. A threshold is announced
-- once per certificate: the job moves it forward under a row lock, in the transaction of the
-- `sso_provider.certificate_expiring` event. A certificate with another notAfter (metadata
-- refreshed with a new one) starts over, so no reset is needed when the metadata changes.
ALTER TABLE "sso_providers" ADD COLUMN "certificate_expiry_notified" JSONB;
