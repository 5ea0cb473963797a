/**
 * `verifyAuditExport`: what scripts/verify-audit-export.mjs proves, as a function. Checks an export
 * (the text, or the stream `cp.audit.export` gives) against signed digests and the JWKS.
 */
import { AuditChainFailure, verifyAuditExportText, type AuditExportProof, type DigestLike, type Jwk } from "./audit-chain.mjs";

export { AuditChainFailure, AuditInputError, parseDigests, type AuditExportProof, type DigestLike, type Jwk } from "./audit-chain.mjs";

export type AuditExportVerification = ({ valid: true } & AuditExportProof) | { valid: false; sequence: number | null; reason: string };

export interface VerifyAuditExportInput {
  /** The export, JSON or CSV: its text, or a stream of its bytes. */
  export: string | AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;
  /** GET /api/v1/audit/jwks.json. */
  jwks: { keys: Jwk[] };
  /** Signed digests (as listed by `cp.audit.digests`), or their JWS strings. */
  digests: (string | DigestLike)[];
}

async function textOf(source: VerifyAuditExportInput["export"]): Promise<string> {
  if (typeof source === "string") return source;
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of source as AsyncIterable<Uint8Array | string>)
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/**
 * `{ valid: true, … }` with what was proved, or `{ valid: false, sequence, reason }` where the
 * export is incomplete or altered. Throws AuditInputError when the input cannot be read.
 */
export async function verifyAuditExport(input: VerifyAuditExportInput): Promise<AuditExportVerification> {
  const exportText = await textOf(input.export);
  try {
    return { valid: true, ...verifyAuditExportText({ exportText, jwks: input.jwks, digests: input.digests }) };
  } catch (error) {
    if (error instanceof AuditChainFailure) return { valid: false, sequence: error.sequence, reason: error.reason };
    throw error;
  }
}
