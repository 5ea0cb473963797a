/**
 * Every event a test emits is checked against the event catalog's schema, as the payload
 * webhooks and the Events API serve it (JSON, from the stored row): a kind whose emitter drifts
 * from its published schema fails the test that emitted it.
 */
import type { EventSubscriber } from "../../server/events/emit.ts";
import { catalogProblems } from "../../server/events/validate.ts";
import { payloadEventOf, payloadOf } from "../../server/events/payload.ts";

export const validateEmittedEvents: EventSubscriber = async (_tx, events) => {
  for (const { row } of events) {
    // An application's own events (source `api`) are not the catalog's, whatever kind a test gives them.
    if (row.source_type === "api") continue;
    const { data } = JSON.parse(payloadOf(payloadEventOf(row))) as { data: unknown };
    const problems = catalogProblems(row.event_type, data);
    if (problems.length) throw new Error(`${row.event_type} does not match the event catalog: ${problems.join("; ")}`);
  }
};
