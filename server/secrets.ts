/**
 * Secrets the app needs (session signing, encryption). Taken from the environment; the embedded
 * default generates them once and keeps them in DATA_DIR/secrets.json (mode 0600).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "./env.ts";

interface Secrets {
  nextauthSecret: string;
  encryptionKey: string;
}

let cached: Secrets | undefined;

export function secrets(): Secrets {
  if (cached) return cached;
  const e = env();
  let stored: Partial<Secrets> = {};
  const file = path.resolve(e.DATA_DIR, "secrets.json");
  if (!e.NEXTAUTH_SECRET || !e.ENCRYPTION_KEY) {
    if (existsSync(file)) stored = JSON.parse(readFileSync(file, "utf8")) as Partial<Secrets>;
    const generated = {
      nextauthSecret: stored.nextauthSecret ?? randomBytes(32).toString("base64url"),
      encryptionKey: stored.encryptionKey ?? randomBytes(32).toString("base64"),
    };
    if (!stored.nextauthSecret || !stored.encryptionKey) {
      mkdirSync(e.DATA_DIR, { recursive: true });
      writeFileSync(file, JSON.stringify(generated, null, 2), { mode: 0o600 });
    }
    stored = generated;
  }
  cached = {
    nextauthSecret: e.NEXTAUTH_SECRET ?? stored.nextauthSecret!,
    encryptionKey: e.ENCRYPTION_KEY ?? stored.encryptionKey!,
  };
  return cached;
}
