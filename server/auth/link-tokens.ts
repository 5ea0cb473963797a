/** Tokens of emailed links (invitations, password resets, setup links): 32 random bytes; only their SHA-256 is stored. */
import { createHash, randomBytes } from "node:crypto";

export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
