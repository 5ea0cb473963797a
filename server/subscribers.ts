/**
 * The start-up wiring of what runs inside every event's transaction. Each composition root (the
 * server's start-up, the CLI, the test set-up) calls `wireEventSubscribers` before anything emits;
 * server/events knows only that subscribers exist, not who they are.
 */
import { setEventSubscribers } from "./events/emit.ts";
import { enqueueDeliveries } from "./webhooks/outbox.ts";

export function wireEventSubscribers(): void {
  setEventSubscribers([enqueueDeliveries]);
}
