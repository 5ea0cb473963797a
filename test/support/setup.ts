/**
 * Per test file: a fresh copy of the migrated template, set as the app's database, and the
 * environment the app reads. Test files never share rows.
 */
import { afterAll, inject } from "vitest";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { connectPostgres, setDatabase } from "../../server/db/client.ts";
import { createDatabase } from "./databases.ts";
import { wireEventSubscribers } from "../../server/app/features.ts";
import { validateEmittedEvents } from "./event-validation.ts";

const name = `${inject("runPrefix")}_${randomBytes(4).toString("hex")}`;
const url = await createDatabase(name, inject("templateDatabase"));

process.env.DATABASE_URL = url;
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

const db = connectPostgres(url, 20);
setDatabase(db);
wireEventSubscribers([validateEmittedEvents]);

afterAll(async () => {
  await db.close();
});
