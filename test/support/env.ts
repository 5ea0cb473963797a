/**
 * Per test file, unit and integration alike: the environment the app reads. Integration files
 * add their own database on top (setup.ts); unit files need none.
 *
 * Files that share a worker's modules (vitest.config.ts) each start from the environment and the
 * clock the worker started with: what the last file set (SMTP_URL, APP_URL, a moved clock) is
 * undone here, and env() reads afresh.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { clock } from "../../server/clock.ts";
import { reloadEnv } from "../../server/env.ts";

const worker = globalThis as typeof globalThis & { testBaseline?: { env: NodeJS.ProcessEnv; now: () => Date } };
if (worker.testBaseline) {
  for (const name of Object.keys(process.env)) if (!(name in worker.testBaseline.env)) delete process.env[name];
  Object.assign(process.env, worker.testBaseline.env);
  clock.now = worker.testBaseline.now;
  reloadEnv();
}

process.env.LOG_LEVEL ??= "silent";
process.env.NEXTAUTH_SECRET ??= "test-secret-test-secret-test-secret-0123";
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
process.env.OUTBOUND_ALLOW_PRIVATE ??= "true";
process.env.AUDIT_SIGNING_KEY ??= generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
// The limiter runs on every request of every test, with quotas no test reaches; the limits
// themselves are proven with low quotas in test/integration/rate-limit.test.ts.
process.env.RATE_LIMIT_PER_TOKEN ??= "1000000";
process.env.RATE_LIMIT_PER_IP ??= "1000000";
process.env.RATE_LIMIT_PER_TOKEN_INGEST ??= "1000000";
process.env.RATE_LIMIT_PER_IP_CONSOLE ??= "1000000";

worker.testBaseline ??= { env: { ...process.env }, now: clock.now };
