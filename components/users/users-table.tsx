"use client";

import { useQuery } from "@tanstack/react-query";
import type { PlatformUser } from "@/server/account/schemas";
import type { PlatformRole } from "@/server/auth/principal";
import { useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { keepPage, ListTable, pageInput, type ListColumn } from "../ui/list-table";
import type { TablePosition } from "../ui/pagination";
import { RelativeTime } from "../ui/relative-time";
import { Select } from "../ui/select";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { IdBadgeIcon, SearchIcon } from "../icons";
import { PLATFORM_ROLE_LABEL, PLATFORM_ROLE_OPTIONS } from "./roles";

export const USERS_PAGE_SIZE = 20;

const COLUMNS: ListColumn[] = [
  { header: "Email", skeleton: <Skeleton className="h-4 w-48" /> },
  { header: "Name", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-32" /> },
  { header: "Platform role", skeleton: <Skeleton className="h-4 w-24" /> },
  { header: "Created", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-20" /> },
];

interface UsersTableProps {
  search: string;
  /** Only operators and support staff, or every user. */
  staffOnly: boolean;
  position: TablePosition;
  onMove: (position: TablePosition) => void;
  selfId: string;
  /** Null for support staff, who see roles but cannot change them. */
  onChangeRole: ((user: PlatformUser, role: PlatformRole | null) => void) | null;
  pendingId: string | null;
  highlightId: string | null;
}

/** Users of the platform, newest first, with a platform role select per row (or the role, read-only). */
export function UsersTable({ search, staffOnly, position, onMove, selfId, onChangeRole, pendingId, highlightId }: UsersTableProps) {
  const trpc = useTRPC();
  const input = {
    ...pageInput(position, USERS_PAGE_SIZE),
    search: search || undefined,
    platform_role: staffOnly ? ("any" as const) : undefined,
  };
  const query = useQuery({ ...trpc.users.list.queryOptions(input), ...keepPage });

  return (
    <ListTable
      label="Platform users"
      columns={COLUMNS}
      query={query}
      position={position}
      onMove={onMove}
      pageSize={USERS_PAGE_SIZE}
      empty={
        search ? (
          <EmptyState
            icon={<SearchIcon className="size-6" />}
            title={`No user matches “${search}”`}
            description="Search looks for part of an email or name, or an exact user ID."
          />
        ) : (
          <EmptyState
            icon={<IdBadgeIcon className="size-6" />}
            title="No platform users"
            description="Create an operator or support user to share the work."
          />
        )
      }
      pastEnd={{ noun: "users", reason: "changed" }}
      renderRow={(user) => {
        const self = user.id === selfId;
        return (
          <Tr key={user.id} data-testid="user-row" className={cx(user.id === highlightId && "bg-indigo-50/60")}>
            <Td className="w-full max-w-0">
              <span className="block truncate font-medium text-slate-900" title={user.email}>
                {user.email}
              </span>
              {user.name || self || !user.has_password ? (
                <span className="mt-1 flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
                  {user.name ? <span className="truncate md:hidden">{user.name}</span> : null}
                  {self ? <Badge>You</Badge> : null}
                  {user.has_password ? null : <Badge tone="warning">No password</Badge>}
                </span>
              ) : null}
            </Td>
            <Td className="hidden max-w-48 truncate md:table-cell">{user.name ?? <span className="text-slate-500">—</span>}</Td>
            <Td>
              {onChangeRole ? (
                <Select
                  aria-label={`Platform role of ${user.email}${self ? " (you)" : ""}`}
                  value={user.platform_role ?? ""}
                  disabled={pendingId === user.id}
                  onChange={(event) => onChangeRole(user, (event.target.value || null) as PlatformRole | null)}
                  className="h-8 min-w-36"
                >
                  {PLATFORM_ROLE_OPTIONS.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </Select>
              ) : user.platform_role ? (
                <Badge>{PLATFORM_ROLE_LABEL[user.platform_role]}</Badge>
              ) : (
                <span className="text-slate-600">No platform role</span>
              )}
            </Td>
            <Td className="hidden text-slate-600 sm:table-cell">
              <RelativeTime iso={user.created_at} />
            </Td>
          </Tr>
        );
      }}
    />
  );
}
