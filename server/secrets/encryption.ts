/**
 * Secrets at rest (webhook signing secrets, OIDC client secrets, and whatever a later sink needs):
 * AES-256-GCM under ENCRYPTION_KEY. A stored value is `v1.<base64 iv>.<base64 tag>.<base64
 * ciphertext>`, with a fresh 12-byte IV per encryption.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { secrets } from "./store.ts";

function key(): Buffer {
  return Buffer.from(secrets().encryptionKey, "base64");
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), ciphertext.toString("base64")].join(".");
}

const cache = new Map<string, string>();

/** Decrypts a stored secret (memoised: the delivery hot path decrypts the same few secrets). */
export function decryptSecret(stored: string): string {
  const hit = cache.get(stored);
  if (hit !== undefined) return hit;
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("not an encrypted secret");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString("utf8");
  if (cache.size > 10_000) cache.clear();
  cache.set(stored, plain);
  return plain;
}
