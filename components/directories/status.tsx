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

/** Why a directory user is not linked to a console account, for people. */
export const UNLINKED_LABEL: Record<NonNullable<DirectoryUser["unlinked_reason"]>, { short: string; long: string }> = {
  outside_verified_domains: {
    short: "Outside your domains",
    long: "Their email is not in one of this tenant's verified domains, so the directory gives them no console access. Verify the domain, or invite the person.",
  },
  no_email: { short: "No email", long: "The IdP sent no primary email, so they cannot be matched to a console account." },
  no_account: {
    short: "No console account",
    long: "The directory gives them no role, so no console account was made for them.",
  },
};

/** A user not linked to a console account, and why (the reason in the badge's tooltip). */
export function LinkBadge({ user }: { user: Pick<DirectoryUser, "linked" | "unlinked_reason"> }) {
  if (user.linked || !user.unlinked_reason) return null;
  const label = UNLINKED_LABEL[user.unlinked_reason];
  return (
    <Badge tone={user.unlinked_reason === "outside_verified_domains" ? "warning" : "neutral"}>
      <span data-testid="user-link" data-reason={user.unlinked_reason} title={label.long}>
        {label.short}
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
