/**
 * Per integration test file: a fresh copy of the migrated template, set as the app's database
 * (after env.ts, which sets the rest of the environment). Test files never share rows.
 */
import { afterAll, inject } from "vitest";
import { randomBytes } from "node:crypto";
import { connectPostgres, setDatabase } from "../../server/db/client.ts";
import { createDatabase } from "./databases.ts";
import { wireEventSubscribers } from "../../server/app/features.ts";
import { validateEmittedEvents } from "./event-validation.ts";
import { takeResponseViolations } from "./response-violations.ts";

const name = `${inject("runPrefix")}_${randomBytes(4).toString("hex")}`;
const url = await createDatabase(name, inject("templateDatabase"));
process.env.DATABASE_URL = url;

const db = connectPostgres(url, 20);
setDatabase(db);
wireEventSubscribers([validateEmittedEvents]);

afterAll(async () => {
  await db.close();
});

// Every /api/v1 response the file's tests received through the test server matched the OpenAPI
// document (status, media type, body schema), or the file fails naming each one that did not.
afterAll(async () => {
  const violations = await takeResponseViolations();
  if (violations.length)
    throw new Error(`${violations.length} response(s) differ from the OpenAPI document:\n${[...new Set(violations)].join("\n")}`);
});
