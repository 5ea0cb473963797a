"use client";

import { formatExact } from "../ui/relative-time";
import type { Delivery } from "./types";

/** How long "Send test event" waits for the first attempt before it stops asking. */
export const TEST_OUTCOME_WAIT_MS = 30_000;
const ASK_EVERY_MS = 700;

/** Whether a delivery has come to something worth reporting: an attempt made (or it was cancelled). */
export function hasOutcome(delivery: Delivery): boolean {
  return delivery.status !== "pending" && (delivery.attempts.length > 0 || delivery.status === "cancelled");
}

/** "Delivered: HTTP 200 in 84 ms", "Failed: HTTP 500 in 12 ms, will retry at …", and so on. */
export function describeOutcome(delivery: Delivery): { tone: "success" | "danger"; text: string } {
  const last = delivery.attempts[delivery.attempts.length - 1];
  const answer = last
    ? `${last.response_status ? `HTTP ${last.response_status}` : (last.error ?? "no response")} in ${last.duration_ms} ms`
    : "";
  switch (delivery.status) {
    case "succeeded":
      return { tone: "success", text: `Delivered: ${answer}` };
    case "failed":
      return {
        tone: "danger",
        text: `Failed: ${answer}${delivery.next_attempt_at ? `, will retry at ${formatExact(delivery.next_attempt_at)}` : ""}`,
      };
    case "exhausted":
      return { tone: "danger", text: `Failed: ${answer}; no retries left` };
    default:
      return { tone: "danger", text: `Not delivered${answer ? `: ${answer}` : ""}; the webhook was disabled` };
  }
}

/**
 * Asks for the delivery until it has an outcome (or the wait is over: null). `fetchDelivery`
 * must ask the server afresh each time.
 */
export async function awaitOutcome(fetchDelivery: () => Promise<Delivery>, waitMs = TEST_OUTCOME_WAIT_MS): Promise<Delivery | null> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS));
    try {
      const delivery = await fetchDelivery();
      if (hasOutcome(delivery)) return delivery;
    } catch {
      // A network blip: ask again until the wait is over.
    }
  }
  return null;
}
