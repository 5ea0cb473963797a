/**
 * Secrets the app needs (session signing, encryption, audit digest signing). Taken from the
 * environment; the embedded default generates the missing ones once and keeps them in
 * DATA_DIR/secrets.json (mode 0600).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env, EnvError } from "../env.ts";
import { generateSigningKey, parseSigningKey } from "./signing-key.ts";

interface Secrets {
  nextauthSecret: string;
  encryptionKey: string;
  /** Ed25519 private key (PKCS#8 PEM or JWK) for audit digests. */
  auditSigningKey: string;
}

let cached: Secrets | undefined;

const generators: Record<keyof Secrets, () => string> = {
  nextauthSecret: () => randomBytes(32).toString("base64url"),
  encryptionKey: () => randomBytes(32).toString("base64"),
  auditSigningKey: generateSigningKey,
};

/**
 * AUDIT_SIGNING_KEY as given, once its format is checked: a key that is not one stops start-up
 * (which reads the secrets right after the environment) with one line naming the variable.
 */
export function checkedSigningKey(value: string): string {
  try {
    parseSigningKey(value);
  } catch (error) {
    throw new EnvError(`Invalid environment: AUDIT_SIGNING_KEY ${(error as Error).message}`);
  }
  return value;
}

export function secrets(): Secrets {
  if (cached) return cached;
  const e = env();
  const given: Partial<Secrets> = {
    nextauthSecret: e.NEXTAUTH_SECRET,
    encryptionKey: e.ENCRYPTION_KEY,
    auditSigningKey: e.AUDIT_SIGNING_KEY && checkedSigningKey(e.AUDIT_SIGNING_KEY),
  };
  const missing = (Object.keys(generators) as (keyof Secrets)[]).filter((name) => !given[name]);
  let stored: Partial<Secrets> = {};
  if (missing.length > 0) {
    const file = path.resolve(e.DATA_DIR, "secrets.json");
    if (existsSync(file)) stored = JSON.parse(readFileSync(file, "utf8")) as Partial<Secrets>;
    const absent = missing.filter((name) => !stored[name]);
    if (absent.length > 0) {
      for (const name of absent) stored[name] = generators[name]();
      mkdirSync(e.DATA_DIR, { recursive: true });
      writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
      chmodSync(file, 0o600); // `mode` applies only to a new file; an older one may be wider
    }
  }
  cached = {
    nextauthSecret: given.nextauthSecret ?? stored.nextauthSecret!,
    encryptionKey: given.encryptionKey ?? stored.encryptionKey!,
    auditSigningKey: given.auditSigningKey ?? stored.auditSigningKey!,
  };
  return cached;
}
