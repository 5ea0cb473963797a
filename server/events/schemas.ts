/**
 * Which events a subscriber takes (a webhook's `events`, a log stream's `event_types`): a selection
 * of kinds, checked when it is saved and matched against each event (`subscriptionsTo`). Pure zod
 * and constants: the console's forms use it too.
 */
import { z } from "zod";
import { APPEND_KIND, isAppendedNamespace, TENANT_EVENT_TYPES } from "./types.ts";

export const MAX_EVENT_KINDS = 100;
/** "All events" in a selection. */
export const ALL_EVENTS = "*";
const TENANT_KINDS: ReadonlySet<string> = new Set(TENANT_EVENT_TYPES);
const WORDS = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const MAX_KIND_LENGTH = 100;

/**
 * What a webhook or a log stream may subscribe to: `*`, a kind that fires in a tenant (the control
 * plane's, or one the tenant's application appends, `invoice.paid`), or a prefix of such kinds
 * (`invoice.*`, `user.*`). Kinds only the platform emits (the OAuth broker's `sso.application_*`) never fire in
 * a tenant, so they are refused rather than silently never delivered.
 */
export function isSubscribable(kind: string): boolean {
  if (kind === ALL_EVENTS || TENANT_KINDS.has(kind)) return true;
  if (kind.length > MAX_KIND_LENGTH) return false;
  if (!kind.endsWith(".*")) return APPEND_KIND.test(kind) && isAppendedNamespace(kind);
  const prefix = kind.slice(0, -1);
  return WORDS.test(prefix.slice(0, -1)) && (isAppendedNamespace(prefix) || TENANT_EVENT_TYPES.some((k) => k.startsWith(prefix)));
}

/** The subscriptions an event of kind `kind` is delivered to: the kind, each prefix of it (`a.*`, `a.b.*`), and `*`. */
export function subscriptionsTo(kind: string): string[] {
  const words = kind.split(".");
  return [kind, ...words.slice(0, -1).map((_, i) => `${words.slice(0, i + 1).join(".")}.*`), ALL_EVENTS];
}

/** What a kind refused by `isSubscribable` is told. */
export const SUBSCRIBABLE =
  `must be * (every event), a kind that fires in a tenant (${TENANT_EVENT_TYPES.join(", ")}), ` +
  "a kind your application appends (e.g. invoice.paid), or a prefix of kinds (e.g. invoice.*, user.*)";

/** At least one subscription (isSubscribable); duplicates dropped. */
export const EventSelection = z
  .array(z.string({ error: "must be a string" }).refine(isSubscribable, SUBSCRIBABLE), { error: "must be an array of event kinds" })
  .min(1, "must name at least one event kind (or *)")
  .max(MAX_EVENT_KINDS, `at most ${MAX_EVENT_KINDS} event kinds`)
  .transform((kinds) => [...new Set(kinds)])
  .meta({
    description:
      "Event kinds to deliver: `*` for all, kinds your application appends (`invoice.paid`), prefixes (`invoice.*`, `user.*`), " +
      `or the control plane's kinds that fire in a tenant: ${TENANT_EVENT_TYPES.join(", ")}.`,
  });
