/**
 * The Ed25519 key that signs audit digests: parsed from AUDIT_SIGNING_KEY (a PKCS#8 PEM, or a
 * private JWK as JSON or base64/base64url JSON), its public JWK and its `kid`. The secrets check
 * the variable's format with it when start-up reads them (store.ts), as the digests parse it.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";

export interface SigningKey {
  privateKey: KeyObject;
  /** The public half as a JWK with `kid`, `alg` and `use`, as the JWKS publishes it. */
  publicJwk: { kty: "OKP"; crv: "Ed25519"; x: string; kid: string; alg: "EdDSA"; use: "sig" };
  kid: string;
}

function privateKeyOf(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith("-----BEGIN")) {
    // One-line env values often carry the PEM's newlines as literal "\n".
    return createPrivateKey({ key: trimmed.replace(/\\n/g, "\n"), format: "pem" });
  }
  const json = trimmed.startsWith("{") ? trimmed : Buffer.from(trimmed, "base64url").toString("utf8");
  return createPrivateKey({ key: JSON.parse(json) as import("node:crypto").JsonWebKey, format: "jwk" });
}

/** Parses the key; throws a message naming what is wrong (never the key itself). */
export function parseSigningKey(text: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = privateKeyOf(text);
  } catch {
    throw new Error("must be an Ed25519 private key: a PKCS#8 PEM, or a private JWK (JSON, or base64 of it)");
  }
  if (privateKey.asymmetricKeyType !== "ed25519")
    throw new Error(`must be an Ed25519 key, not ${privateKey.asymmetricKeyType ?? "a symmetric key"}`);
  const { x } = createPublicKey(privateKey).export({ format: "jwk" });
  // RFC 7638 thumbprint: the required members, in lexicographic order, no whitespace.
  const kid = createHash("sha256")
    .update(JSON.stringify({ crv: "Ed25519", kty: "OKP", x }))
    .digest("base64url");
  return { privateKey, kid, publicJwk: { kty: "OKP", crv: "Ed25519", x: x!, kid, alg: "EdDSA", use: "sig" } };
}

/** A new key as AUDIT_SIGNING_KEY takes it (PKCS#8 PEM). */
export function generateSigningKey(): string {
  return generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
}
