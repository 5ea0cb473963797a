import { Badge } from "../ui/badge";
import { RelativeTime } from "../ui/relative-time";
import type { DirectoryUser, ScimRequestEntry } from "./types";

/** "1 user", "2 users". */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** When the IdP last called, or that it never has (the first thing to check when nothing syncs). */
export function LastRequest({ at }: { at: string | null }) {
  if (!at) return <span className="text-slate-600">No requests yet</span>;
  return <RelativeTime iso={at} />;
}

export function UserState({ state }: { state: DirectoryUser["state"] }) {
  return (
    <Badge tone={state === "active" ? "success" : "neutral"} className="capitalize">
      <span data-testid="user-state" data-state={state}>
        {state}
      </span>
    </Badge>
  );
}

export function RoleBadge({ role }: { role: DirectoryUser["role"] }) {
  if (!role) return <span className="text-slate-600">No membership</span>;
  return (
    <Badge tone={role === "admin" ? "accent" : "neutral"} className="capitalize">
      {role}
    </Badge>
  );
}

/** A SCIM response status: green for 2xx, amber for 4xx the IdP should fix, red for 5xx and auth failures. */
export function RequestStatus({ entry }: { entry: ScimRequestEntry }) {
  const tone = entry.status < 400 ? "success" : entry.status === 401 || entry.status >= 500 ? "danger" : "warning";
  return (
    <Badge tone={tone} className="font-mono">
      <span data-testid="request-status" data-status={entry.status}>
        {entry.status}
      </span>
    </Badge>
  );
}
