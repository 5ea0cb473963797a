/**
 * Directory tokens: what an IdP's SCIM client sends as `Authorization: Bearer`. `scim_` and 32
 * random bytes (base64url); only the SHA-256 is kept, with the last four characters as a hint.
 * A token opens its own directory's SCIM endpoint and nothing else (no principal is made of it).
 */
import { randomBytes } from "node:crypto";
import { hashToken, lastFourOf } from "../auth/tokens.ts";
import { DIRECTORY_TOKEN_PREFIX } from "./schemas.ts";

export interface NewDirectoryToken {
  token: string;
  tokenHash: string;
  tokenHint: string;
}

export function newDirectoryToken(): NewDirectoryToken {
  const token = DIRECTORY_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return { token, tokenHash: hashToken(token), tokenHint: lastFourOf(token) };
}

export { hashToken as hashDirectoryToken };
