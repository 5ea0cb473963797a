// What an e2e server runs: the compiled production server (scripts/serve.ts, built by
// scripts/build-server.mjs into SERVER_DIR) on the production build in NEXT_DIST_DIR (else .next),
// with the fixed test environment of constants.json. e2e/serve.mjs runs it on Postgres for the
// journeys; e2e/embedded-database.spec.ts runs a second one on the embedded database.
import { readFileSync } from "node:fs";
import path from "node:path";

const constants = JSON.parse(readFileSync(new URL("./constants.json", import.meta.url), "utf8"));

export const SERVER_DIR = "dist/e2e-server";
export const SERVER_ENTRY = path.join(SERVER_DIR, "serve.js");
export const DIST_DIR = process.env.NEXT_DIST_DIR || ".next";

/** The server's environment on `port`, on top of this process's: no database chosen (the caller adds one, or not). */
export function serverEnv(port) {
  const appUrl = `http://127.0.0.1:${port}`;
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: DIST_DIR,
    PORT: String(port),
    APP_URL: appUrl,
    NEXTAUTH_URL: appUrl,
    NEXTAUTH_SECRET: constants.nextauthSecret,
    ENCRYPTION_KEY: constants.encryptionKey,
    BOOTSTRAP_ADMIN_EMAIL: constants.operatorEmail,
    BOOTSTRAP_ADMIN_PASSWORD: constants.operatorPassword,
    BOOTSTRAP_TOKEN: constants.bootstrapToken,
    // The SSO journeys fetch metadata from an identity provider on 127.0.0.1; the webhook ones deliver there.
    OUTBOUND_ALLOW_PRIVATE: "true",
    LOG_LEVEL: "warn",
    INTERNAL_CRON: "off",
  };
}
