/**
 * The create/edit form: its checks before a round trip, and where the server's field errors go.
 * The server stays the authority (its URL policy reads the server's environment), so the client
 * only catches what is plainly missing or malformed, with the server's limits.
 */
import { useQuery } from "@tanstack/react-query";
import type { OutboundPolicy } from "@/server/outbound/schemas";
import { MAX_DESCRIPTION_LENGTH, MAX_FILTER_LENGTH, MIN_SECRET_LENGTH } from "@/server/webhooks/schemas";
import { serverErrors, type FieldErrors } from "../form-errors";
import { fieldErrorsOf, useTRPC } from "../trpc";
import { ALL_EVENTS } from "./event-kinds";
import type { EventsChoice } from "./events-picker";

export interface WebhookFormValues {
  url: string;
  description: string;
  events: EventsChoice;
  /** Create only: null to have the server generate one. */
  secret: string | null;
  /** The CEL filter; empty for none. */
  filter: string;
}

/** The fields in form order, with the id of their control (for focusFirstError). */
export const FIELD_IDS: Array<[string, string]> = [
  ["url", "webhook-url"],
  ["description", "webhook-description"],
  ["events", "webhook-events"],
  ["filter", "webhook-filter"],
  ["secret", "webhook-secret"],
  ["rate_limit_per_second", "webhook-rate"],
  ["ordering", "webhook-ordered"],
];

const LABELS = {
  url: "URL",
  description: "Description",
  events: "Events",
  secret: "Secret",
  rate_limit_per_second: "Rate limit",
  ordering: "Order",
  filter: "Filter",
};

export function eventsOf(choice: EventsChoice): string[] {
  return choice.all ? [ALL_EVENTS] : choice.kinds;
}

/** Where this server lets a webhook point (plain http to private hosts under OUTBOUND_ALLOW_PRIVATE); undefined while loading. */
export function useUrlPolicy(tenantId: string): OutboundPolicy | undefined {
  const trpc = useTRPC();
  return useQuery(trpc.webhooks.urlPolicy.queryOptions({ tenant_id: tenantId }, { staleTime: Infinity })).data;
}

/** The URL field's rule, as its hint says it. */
export function urlRule(policy: OutboundPolicy | undefined): string {
  return policy?.private_hosts ? "Must be https, or plain http to a private or local host (this server allows them)." : "Must be https.";
}

function isWebUrl(value: string): boolean {
  try {
    return ["https:", "http:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export function checkForm(values: WebhookFormValues): FieldErrors {
  const errors: FieldErrors = {};
  const url = values.url.trim();
  if (!url) errors.url = "URL must not be empty";
  else if (!isWebUrl(url)) errors.url = "URL must be an absolute https URL";
  if (values.description.trim().length > MAX_DESCRIPTION_LENGTH)
    errors.description = `Description must be at most ${MAX_DESCRIPTION_LENGTH} characters`;
  if (!values.events.all && values.events.kinds.length === 0) errors.events = "Pick at least one event, or choose All events";
  if (values.filter.length > MAX_FILTER_LENGTH) errors.filter = `Filter must be at most ${MAX_FILTER_LENGTH} characters`;
  if (values.secret !== null && values.secret.length < MIN_SECRET_LENGTH)
    errors.secret = `Secret must be at least ${MIN_SECRET_LENGTH} characters`;
  return errors;
}

/**
 * The server's field errors on the form's fields; null if none fit. "events.2" is about the third
 * of `events` (as sent): named by its kind, briefly (the server's message lists every valid kind).
 */
export function serverFieldErrors(error: unknown, events: string[] = []): FieldErrors | null {
  const errors = serverErrors(error, LABELS);
  for (const { path, message } of fieldErrorsOf(error)) {
    const match = /^events\.(\d+)$/.exec(path);
    if (!match || errors.events) continue;
    const kind = events[Number(match[1])];
    errors.events = kind
      ? `${kind} is not an event that can fire in this tenant: tick the kinds above, or type your application's own (invoice.paid) or a prefix (invoice.*)`
      : `Event ${Number(match[1]) + 1} ${message}`;
  }
  return Object.keys(errors).length ? errors : null;
}
