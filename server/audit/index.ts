/** What other domains may use of the audit log (besides its pure schemas.ts): log streams follow it. */
export type { AuditDigest } from "./digest-schemas.ts";
export { presentDigest } from "./digests.ts";
export { AUDIT_COLUMNS, chainHead, presentEvent } from "./query.ts";
