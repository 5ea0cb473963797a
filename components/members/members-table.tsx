"use client";

import { useQuery } from "@tanstack/react-query";
import type { Member } from "@/server/members/schemas";
import type { TenantRole } from "../console/use-tenant-role";
import { useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { actionsColumn, keepPage, ListTable, type ListColumn } from "../ui/list-table";
import type { TablePosition } from "../ui/pagination";
import { RelativeTime } from "../ui/relative-time";
import { Select } from "../ui/select";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { UsersIcon } from "../icons";
import { MEMBERS_PAGE_SIZE, membersInput } from "./queries";
import { ROLE_LABEL, ROLE_OPTIONS } from "./roles";

export interface MemberActions {
  changeRole: (member: Member, role: TenantRole) => void;
  remove: (member: Member) => void;
  /** Platform operators only: admins invite people instead of setting their passwords. */
  setPassword?: (member: Member) => void;
  /** Keeps a membership flagged for review (clears `review_reason`). */
  keep: (member: Member) => void;
}

interface MembersTableProps {
  tenantId: string;
  position: TablePosition;
  onMove: (position: TablePosition) => void;
  /** Write controls (role select, remove, set password) when given; a read-only list otherwise. */
  actions: MemberActions | null;
  selfId: string;
  /** The member whose role is being changed. */
  pendingId?: string | null;
  highlightId?: string | null;
}

function columns(editable: boolean): ListColumn[] {
  return [
    { header: "Email", skeleton: <Skeleton className="h-4 w-48" /> },
    { header: "Name", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-32" /> },
    { header: "Role", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-16" /> },
    { header: "Added", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-20" /> },
    ...(editable ? [actionsColumn("hidden sm:table-cell")] : []),
  ];
}

function RoleCell({ member, actions, pending, self }: { member: Member; actions: MemberActions | null; pending: boolean; self: boolean }) {
  if (!actions) return <Badge tone={member.role === "admin" ? "accent" : "neutral"}>{ROLE_LABEL[member.role]}</Badge>;
  return (
    <Select
      aria-label={`Role of ${member.email}${self ? " (you)" : ""}`}
      value={member.role}
      disabled={pending}
      onChange={(event) => actions.changeRole(member, event.target.value as TenantRole)}
      className="h-8 min-w-28"
    >
      {ROLE_OPTIONS.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </Select>
  );
}

function RowActions({ member, actions, className }: { member: Member; actions: MemberActions; className?: string }) {
  return (
    <span className={cx("gap-2", className)}>
      {member.review_reason ? (
        <Button variant="secondary" size="sm" onClick={() => actions.keep(member)} aria-label={`Keep ${member.email}`}>
          Keep
        </Button>
      ) : null}
      {member.has_password || !actions.setPassword ? null : (
        <Button variant="secondary" size="sm" onClick={() => actions.setPassword?.(member)} aria-label={`Set password for ${member.email}`}>
          Set password
        </Button>
      )}
      <Button variant="secondary" size="sm" onClick={() => actions.remove(member)} aria-label={`Remove ${member.email}`}>
        Remove
      </Button>
    </span>
  );
}

const REVIEW_REASON: Record<NonNullable<Member["review_reason"]>, string> = {
  directory_outside_verified_domains:
    "A directory added this person before directories were held to the tenant's verified domains, and their email is outside them. Keep them, or remove them.",
};

/** Email, then name and badges; on narrow screens also the role and actions, as there is no room for their columns. */
function MemberCell({
  member,
  actions,
  pending,
  self,
}: {
  member: Member;
  actions: MemberActions | null;
  pending: boolean;
  self: boolean;
}) {
  return (
    <>
      <span className="block truncate font-medium text-slate-900" title={member.email}>
        {member.email}
      </span>
      {member.name || self || !member.has_password || member.directory || member.review_reason ? (
        <span className="mt-1 flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
          {member.name ? <span className="truncate md:hidden">{member.name}</span> : null}
          {self ? <Badge>You</Badge> : null}
          {member.has_password ? null : <Badge tone="warning">No password</Badge>}
          {member.directory ? (
            <Badge>
              <span
                data-testid="member-directory"
                title={`The directory ${member.directory.name} governs this membership: it sets the role, and ends the membership when the person leaves the IdP.`}
              >
                Managed by {member.directory.name}
              </span>
            </Badge>
          ) : null}
          {member.review_reason ? (
            <Badge tone="warning">
              <span data-testid="member-review" title={REVIEW_REASON[member.review_reason]}>
                Needs review
              </span>
            </Badge>
          ) : null}
        </span>
      ) : null}
      <span className="mt-2 flex flex-wrap items-center gap-2 sm:hidden">
        <span className="inline-block">
          <RoleCell member={member} actions={actions} pending={pending} self={self} />
        </span>
        {actions ? <RowActions member={member} actions={actions} className="contents" /> : null}
      </span>
    </>
  );
}

/** A tenant's members, newest first, a page at a time. */
export function MembersTable({ tenantId, position, onMove, actions, selfId, pendingId, highlightId }: MembersTableProps) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.members.list.queryOptions(membersInput(tenantId, position.cursor)),
    ...keepPage,
  });

  return (
    <ListTable
      label="Members"
      columns={columns(actions !== null)}
      query={query}
      position={position}
      onMove={onMove}
      pageSize={MEMBERS_PAGE_SIZE}
      empty={
        <EmptyState
          icon={<UsersIcon className="size-6" />}
          title="No members yet"
          description="Add people to give them access to this tenant."
        />
      }
      pastEnd={{ noun: "members", reason: "removed" }}
      renderRow={(member) => {
        const self = member.user_id === selfId;
        return (
          <Tr key={member.user_id} data-testid="member-row" className={cx(member.user_id === highlightId && "bg-indigo-50/60")}>
            <Td className="w-full max-w-0">
              <MemberCell member={member} actions={actions} pending={pendingId === member.user_id} self={self} />
            </Td>
            <Td className="hidden max-w-48 truncate md:table-cell">{member.name ?? <span className="text-slate-500">—</span>}</Td>
            <Td className="hidden sm:table-cell">
              <RoleCell member={member} actions={actions} pending={pendingId === member.user_id} self={self} />
            </Td>
            <Td className="hidden text-slate-600 sm:table-cell">
              <RelativeTime iso={member.created_at} />
            </Td>
            {actions ? (
              <Td className="hidden text-right sm:table-cell">
                <RowActions member={member} actions={actions} className="inline-flex" />
              </Td>
            ) : null}
          </Tr>
        );
      }}
    />
  );
}
