/**
 * An app instance in its own process, for tests about what instances share (rate limits): serves
 * the REST edge like test/support/api.ts on DATABASE_URL and prints {"url"} when listening.
 *   node --import tsx --import ./scripts/server-only.mjs test/support/api-process.ts
 */
import { startApi } from "./api.ts";
import { wireEventSubscribers } from "../../server/app/features.ts";
import { validateEmittedEvents } from "./event-validation.ts";

wireEventSubscribers([validateEmittedEvents]);
const api = await startApi();
console.log(JSON.stringify({ url: api.url }));
