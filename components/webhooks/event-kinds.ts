import { TENANT_EVENT_TYPES } from "@/server/events/types";
import { ALL_EVENTS } from "@/server/events/schemas";

export { ALL_EVENTS };

export interface EventGroup {
  /** The part before the dot: "user", "sso_provider". */
  prefix: string;
  label: string;
  kinds: string[];
}

/** Every prefix of TENANT_EVENT_TYPES has a label (test/unit/event-kinds.test.ts). */
export const GROUP_LABELS: Record<string, string> = {
  tenant: "Tenant",
  user: "Users",
  invitation: "Invitations",
  sso_provider: "SSO providers",
  sso: "SSO sign-in",
  domain: "Domains",
  setup_link: "Setup links",
  directory: "Directories",
  directory_user: "Directory users",
  directory_group: "Directory groups",
  webhook: "Webhooks",
  log_stream: "Log streams",
  api_token: "API tokens",
  audit: "Audit log",
};

/**
 * The control plane's kinds that can fire in a tenant (not the platform's own), grouped by what
 * they are about, in the order the server lists them.
 */
export const EVENT_GROUPS: EventGroup[] = TENANT_EVENT_TYPES.reduce<EventGroup[]>((groups, kind) => {
  const prefix = kind.split(".")[0]!;
  let group = groups.find((g) => g.prefix === prefix);
  if (!group) {
    group = { prefix, label: GROUP_LABELS[prefix] ?? prefix, kinds: [] };
    groups.push(group);
  }
  group.kinds.push(kind);
  return groups;
}, []);

/** The kinds the picker offers as boxes; any other kind of a webhook is one its tenant's application appends. */
export const OFFERED_KINDS: ReadonlySet<string> = new Set(TENANT_EVENT_TYPES);

/** "invoice.paid, app.*" as typed: the kinds, in order, without blanks or repeats. */
export function parseOwnKinds(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

export function subscribesToAll(events: string[]): boolean {
  return events.includes(ALL_EVENTS);
}

/** "All events", or the kinds themselves, shortened after `max`: "user.created, user.updated +3 more". */
export function describeEvents(events: string[], max = 2): string {
  if (subscribesToAll(events)) return "All events";
  if (events.length <= max) return events.join(", ");
  return `${events.slice(0, max).join(", ")} +${events.length - max} more`;
}
