"use client";

import { useState } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTRPC } from "../trpc";
import { Card, CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { keepPage, ListTable, type ListColumn } from "../ui/list-table";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { RelativeTime } from "../ui/relative-time";
import { SearchBox } from "../ui/search-box";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { UsersIcon } from "../icons";
import { PROVIDER_STEPS } from "./provider-steps";
import { DIRECTORY_GROUPS_PAGE_SIZE, directoryGroupsInput } from "./queries";
import type { Directory, DirectoryGroup } from "./types";

const COLUMNS: ListColumn[] = [
  { header: "Group", skeleton: <Skeleton className="h-4 w-40" /> },
  { header: "Members", skeleton: <Skeleton className="h-4 w-10" /> },
  { header: "Mapped to", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-16" /> },
  { header: "Updated", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-20" /> },
];

/** The role the first matching mapping gives (by name any case, or IdP id), as the server decides it. */
function mappedRole(directory: Directory, group: DirectoryGroup): string | null {
  const mapping = directory.role_mappings.find(
    (m) => m.group.toLowerCase() === group.name.toLowerCase() || (group.idp_id !== null && m.group === group.idp_id),
  );
  return mapping ? mapping.role : null;
}

function GroupRow({ tenantId, directory, group }: { tenantId: string; directory: Directory; group: DirectoryGroup }) {
  const role = mappedRole(directory, group);
  return (
    <Tr data-testid="directory-group-row" data-group-name={group.name}>
      <Td className="w-full max-w-0">
        <Link
          href={consoleUrl.directory(tenantId, directory.id, new URLSearchParams({ tab: "users", group: group.id }))}
          className="block font-medium whitespace-normal wrap-anywhere text-slate-900 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
          title="Show its members"
        >
          {group.name}
        </Link>
        {group.idp_id ? <p className="truncate font-mono text-xs text-slate-600">{group.idp_id}</p> : null}
      </Td>
      <Td className="tabular-nums">{group.user_count}</Td>
      <Td className="hidden capitalize sm:table-cell">{role ?? <span className="text-slate-500 normal-case">Not mapped</span>}</Td>
      <Td className="hidden md:table-cell">
        <RelativeTime iso={group.updated_at} />
      </Td>
    </Tr>
  );
}

/** The directory's groups, searchable by name; a group leads to its members. */
export function GroupsSection({ tenantId, directory }: { tenantId: string; directory: Directory }) {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const query = useQuery({
    ...trpc.directories.listGroups.queryOptions(directoryGroupsInput(tenantId, directory.id, search, position.cursor)),
    ...keepPage,
  });
  const idp = PROVIDER_STEPS[directory.provider].name;
  return (
    <Card aria-labelledby="directory-groups-title">
      <CardHeader
        as="h3"
        title={<span id="directory-groups-title">Groups</span>}
        description={`The groups ${idp} pushed. Map them to console roles on the Overview.`}
      />
      <div className="border-b border-slate-200 px-4 py-3 sm:px-6">
        <SearchBox
          id="directory-group-search"
          label="Search groups"
          placeholder="Search group name"
          value={search}
          onChange={(next) => {
            setSearch(next);
            setPosition(FIRST_PAGE);
          }}
        />
      </div>
      <ListTable
        label="Directory groups"
        columns={COLUMNS}
        query={query}
        position={position}
        onMove={setPosition}
        pageSize={DIRECTORY_GROUPS_PAGE_SIZE}
        empty={
          search ? (
            <EmptyState title="No groups match" description="Try another part of the name." />
          ) : (
            <EmptyState
              icon={<UsersIcon className="size-6" />}
              title="No groups yet"
              description={`Push groups from ${idp} (in Okta: Push Groups; in Entra ID: assign groups to the app) to map them to console roles.`}
            />
          )
        }
        pastEnd={{ noun: "groups", reason: "deleted" }}
        renderRow={(group) => <GroupRow key={group.id} tenantId={tenantId} directory={directory} group={group} />}
      />
    </Card>
  );
}
