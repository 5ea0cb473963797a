/** Types of ./audit-chain.mjs (plain JavaScript, shared with scripts/verify-audit-export.mjs). */

/** A signed digest as GET .../audit/digests lists it (only its `jws` is read). */
export interface DigestLike {
  jws: string;
}

export interface AuditExportProof {
  tenantId: string;
  firstSequence: number;
  lastSequence: number;
  /** Events proved complete and unaltered. */
  events: number;
  digests: number;
  /** The ids of the keys that signed the digests. */
  kids: string[];
  /** Rows of the export outside the digests' span (not covered). */
  uncovered: number;
}

export class AuditChainFailure extends Error {
  /** The sequence where the export fails, or null when a digest is at fault. */
  readonly sequence: number | null;
  readonly reason: string;
}

export class AuditInputError extends Error {}

export function parseDigests(text: string): string[];

export function verifyAuditExportText(input: {
  exportText: string;
  jwks: { keys: JsonWebKey[] };
  digests: (string | DigestLike)[];
}): AuditExportProof;
