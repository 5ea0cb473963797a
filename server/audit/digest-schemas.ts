/** Schemas of the signed audit digests and their public keys (server/audit/digests.ts). */
import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { TenantAuditInput } from "./schemas.ts";

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

export const AuditDigest = z
  .object({
    id: z.uuid(),
    jws: z.string().meta({
      description: "Compact JWS (`alg` EdDSA, Ed25519; `kid` names the key in /api/v1/audit/jwks.json) whose payload is the fields below.",
    }),
    tenant_id: z.uuid(),
    from_sequence: z
      .number()
      .int()
      .meta({ description: "First event sequence this digest covers (the previous digest's `to_sequence` + 1)." }),
    to_sequence: z.number().int().meta({ description: "The chain head's sequence when signed." }),
    head_hash: sha256Hex.meta({ description: "`hash` of the event at `to_sequence`: it commits to every event up to it." }),
    previous_digest_hash: sha256Hex
      .nullable()
      .meta({ description: "Hex SHA-256 of the previous digest's `jws`; null for the tenant's first digest." }),
    signed_at: z.iso.datetime(),
    kid: z.string(),
  })
  .meta({ id: "AuditDigest" });
export type AuditDigest = z.infer<typeof AuditDigest>;

export const AuditDigestPage = pageOf(AuditDigest).meta({ id: "AuditDigestPage" });

export const ListDigestsInput = TenantAuditInput.extend(PageQuery.shape);
export const DigestInput = TenantAuditInput.extend({ digest_id: z.string().max(100) });

const Jwk = z.object({
  kty: z.literal("OKP"),
  crv: z.literal("Ed25519"),
  x: z.string(),
  kid: z.string(),
  alg: z.literal("EdDSA"),
  use: z.literal("sig"),
});

export const AuditJwks = z
  .object({ keys: z.array(Jwk).meta({ description: "The current signing key first, then every key that has signed a digest." }) })
  .meta({ id: "AuditJwks" });
