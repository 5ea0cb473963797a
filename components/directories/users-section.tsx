"use client";

import { useRef, useState } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTRPC } from "../trpc";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { keepPage, ListTable, type ListColumn } from "../ui/list-table";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { SearchBox } from "../ui/search-box";
import { Select } from "../ui/select";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { CloseIcon, UsersIcon } from "../icons";
import { PROVIDER_STEPS } from "./provider-steps";
import { DIRECTORY_USERS_PAGE_SIZE, directoryUsersInput, userFiltersOf, type UserFilters } from "./queries";
import { LinkBadge, RoleBadge, UserState } from "./status";
import type { Directory, DirectoryUser } from "./types";

const COLUMNS: ListColumn[] = [
  {
    header: "User",
    skeleton: (
      <>
        <Skeleton className="h-4 w-48" />
        <Skeleton className="mt-1.5 h-3 w-32" />
      </>
    ),
  },
  { header: "State", skeleton: <Skeleton className="h-5 w-16" /> },
  { header: "Role", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-5 w-16" /> },
  { header: "Groups", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-32" /> },
];

/** "Ada Lovelace", or the user name when the IdP sent no name. */
export function displayName(user: DirectoryUser): string {
  return [user.first_name, user.last_name].filter(Boolean).join(" ") || user.user_name;
}

function UserRow({ tenantId, user }: { tenantId: string; user: DirectoryUser }) {
  const email = user.emails.find((e) => e.primary)?.value ?? user.emails[0]?.value;
  return (
    <Tr data-testid="directory-user-row" data-user-name={user.user_name}>
      <Td className="w-full max-w-0">
        <Link
          href={consoleUrl.directoryUser(tenantId, user.directory_id, user.id)}
          className="block font-medium whitespace-normal wrap-anywhere text-slate-900 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {displayName(user)}
        </Link>
        <p className="truncate text-xs text-slate-600">
          {email && email !== user.user_name ? `${user.user_name} · ${email}` : user.user_name}
        </p>
      </Td>
      <Td>
        <span className="flex flex-wrap items-center gap-1">
          <UserState state={user.state} />
          <LinkBadge user={user} />
        </span>
      </Td>
      <Td className="hidden sm:table-cell">
        <RoleBadge role={user.role} />
      </Td>
      <Td className="hidden max-w-64 truncate md:table-cell" title={user.groups.map((g) => g.name).join(", ")}>
        {user.groups.length === 0 ? <span className="text-slate-500">None</span> : user.groups.map((g) => g.name).join(", ")}
      </Td>
    </Tr>
  );
}

/** The directory's people, searchable and filtered by state or group (filters kept in the URL). */
export function UsersSection({ tenantId, directory }: { tenantId: string; directory: Directory }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  // The filters start from the URL and are mirrored into it; the state (not the URL, which
  // router.replace updates a moment later) is what the next change builds on.
  const [filters, setFilterState] = useState(() => userFiltersOf(params));
  const latest = useRef(filters);
  // Bumped by "Clear filters": the search box starts over with an empty text.
  const [cleared, setCleared] = useState(0);
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const query = useQuery({
    ...trpc.directories.listUsers.queryOptions(directoryUsersInput(tenantId, directory.id, filters, position.cursor)),
    ...keepPage,
  });
  const group = useQuery({
    ...trpc.directories.getGroup.queryOptions({ tenant_id: tenantId, directory_id: directory.id, directory_group_id: filters.group }),
    enabled: Boolean(filters.group),
  });

  const setFilters = (next: Partial<UserFilters>) => {
    const merged = { ...latest.current, ...next };
    latest.current = merged;
    setFilterState(merged);
    setPosition(FIRST_PAGE);
    const query = new URLSearchParams({ tab: "users" });
    if (merged.search) query.set("search", merged.search);
    if (merged.state) query.set("state", merged.state);
    if (merged.linked) query.set("linked", merged.linked);
    if (merged.group) query.set("group", merged.group);
    router.replace(consoleUrl.withQuery(pathname, query), { scroll: false });
  };
  const filtered = Boolean(filters.search || filters.state || filters.linked || filters.group);
  const idp = PROVIDER_STEPS[directory.provider].name;

  return (
    <Card aria-labelledby="directory-users-title">
      <CardHeader
        as="h3"
        title={<span id="directory-users-title">Users</span>}
        description={`The people ${idp} provisioned. Inactive ones were deactivated there. Only people in this tenant's verified domains are linked to console accounts; the others touch no account here.`}
      />
      <div className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 sm:flex-row sm:flex-wrap sm:items-center sm:px-6">
        <SearchBox
          key={cleared}
          id="directory-user-search"
          label="Search users"
          placeholder="Search name, user name or email"
          value={filters.search}
          onChange={(search) => setFilters({ search })}
        />
        <div className="w-full sm:w-40">
          <label htmlFor="directory-user-state" className="sr-only">
            State
          </label>
          <Select
            id="directory-user-state"
            value={filters.state}
            onChange={(event) => setFilters({ state: event.target.value as UserFilters["state"] })}
          >
            <option value="">All states</option>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </Select>
        </div>
        <div className="w-full sm:w-48">
          <label htmlFor="directory-user-linked" className="sr-only">
            Console account
          </label>
          <Select
            id="directory-user-linked"
            value={filters.linked}
            onChange={(event) => setFilters({ linked: event.target.value as UserFilters["linked"] })}
          >
            <option value="">Linked or not</option>
            <option value="true">Linked to an account</option>
            <option value="false">Not linked</option>
          </Select>
        </div>
        {filters.group ? (
          <span className="inline-flex items-center gap-1 self-start rounded-md bg-indigo-50 py-0.5 pr-0.5 pl-2 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200 ring-inset sm:self-auto">
            In group {group.data ? group.data.name : "…"}
            <Button
              variant="ghost"
              size="sm"
              className="h-6 px-1 text-indigo-700"
              onClick={() => setFilters({ group: "" })}
              aria-label="Show users of every group"
            >
              <CloseIcon className="size-3.5" />
            </Button>
          </span>
        ) : null}
      </div>
      <ListTable
        label="Directory users"
        columns={COLUMNS}
        query={query}
        position={position}
        onMove={setPosition}
        pageSize={DIRECTORY_USERS_PAGE_SIZE}
        empty={
          filtered ? (
            <EmptyState
              title="No users match"
              description="Try another search, or clear the filters."
              action={
                <Button
                  variant="secondary"
                  onClick={() => {
                    setFilters({ search: "", state: "", linked: "", group: "" });
                    setCleared((n) => n + 1);
                  }}
                >
                  Clear filters
                </Button>
              }
            />
          ) : (
            <EmptyState
              icon={<UsersIcon className="size-6" />}
              title="No users yet"
              description={`Once ${idp} is connected (see Overview), assign people to the app there: they appear here within its next sync.`}
            />
          )
        }
        pastEnd={{ noun: "users", reason: "deleted" }}
        renderRow={(user) => <UserRow key={user.id} tenantId={tenantId} user={user} />}
      />
    </Card>
  );
}
