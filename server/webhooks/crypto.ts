/**
 * The webhook signing secret's own form: how a new one is made and what the API shows of it.
 * At rest it is encrypted like every stored secret (server/secrets/encryption.ts).
 */
import { randomBytes } from "node:crypto";

/** A new secret in the Standard Webhooks form: `whsec_` + 32 random bytes, base64. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** What the API shows of a secret: its last four characters. */
export function secretHint(secret: string): string {
  return secret.slice(-4);
}
