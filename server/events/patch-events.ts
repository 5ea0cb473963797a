/**
 * What a PATCH on a resource that can be switched on and off records: `<kind>.updated` with the
 * fields it changed, and `<kind>.enabled`/`.disabled` when `enabled` flips. SSO providers,
 * webhooks and directories use it, so their events have the same shape.
 */
import type { EventInput, EventTarget } from "./emit.ts";

export type Changes = Record<string, { from: unknown; to: unknown }>;

/**
 * The fields a PATCH changes: each one it gives (`to` is not undefined) whose value differs from
 * the current one. Lists compare as sets: reordering them is not a change.
 */
export function patchChanges(fields: Record<string, { from: unknown; to: unknown }>): Changes {
  const changes: Changes = {};
  for (const [name, { from, to }] of Object.entries(fields)) {
    if (to === undefined) continue;
    const same = Array.isArray(from) && Array.isArray(to) ? [...to].sort().join() === [...from].sort().join() : to === from;
    if (!same) changes[name] = { from, to };
  }
  return changes;
}

export interface Patch {
  tenantId: string;
  target: EventTarget;
  /** What names the resource in every event's details, as it is after the change (e.g. `{ name }`). */
  label: Record<string, unknown>;
  changes: Changes;
  enabled: { from: boolean; to: boolean | undefined };
}

/** Whether `enabled` is given and differs from the current state. */
export function flips(enabled: Patch["enabled"]): boolean {
  return enabled.to !== undefined && enabled.to !== enabled.from;
}

/** The events of a PATCH, in order (`.updated` first); none when it changes nothing. */
export function patchEvents(
  kind: "sso_provider" | "webhook" | "directory" | "log_stream",
  { tenantId, target, label, changes, enabled }: Patch,
): EventInput[] {
  const events: EventInput[] = [];
  // The kind is built from a template, so tsc cannot pair it with its details: each of these kinds'
  // schemas takes the label and `changes` (server/events/catalog/), and the suite validates them.
  const event = (type: string, details: Record<string, unknown>) => ({ type, tenantId, target, details }) as EventInput;
  if (Object.keys(changes).length) events.push(event(`${kind}.updated`, { ...label, changes }));
  if (flips(enabled)) {
    events.push(
      event(enabled.to ? `${kind}.enabled` : `${kind}.disabled`, {
        ...label,
        changes: { enabled: { from: enabled.from, to: enabled.to } },
      }),
    );
  }
  return events;
}
