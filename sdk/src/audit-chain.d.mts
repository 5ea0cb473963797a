/** Types of ./audit-chain.mjs (plain JavaScript, shared with scripts/verify-audit-export.mjs). */
/**
 * A public key of GET /api/v1/audit/jwks.json: its own type, not the DOM's JsonWebKey (a Node
 * project's types need not include the DOM library); the DOM's and node:crypto's both fit it.
 */
export interface Jwk {
  kty?: string;
  kid?: string;
  alg?: string;
  use?: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

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
  jwks: { keys: Jwk[] };
  digests: (string | DigestLike)[];
}): AuditExportProof;
