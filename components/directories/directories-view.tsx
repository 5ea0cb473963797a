"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTenantRole } from "../console/use-tenant-role";
import { switchOf } from "../resource/parts";
import { ListCard } from "../resource/list-card";
import { AddButton } from "../resource/parts";
import { enabledColumn, ResourceRow, rowActionsColumn } from "../resource/resource-row";
import { SetupLinksCard } from "../setup/setup-links-card";
import { useTRPC } from "../trpc";
import { EmptyState } from "../ui/empty-state";
import { keepPage, ListTable, type ListColumn } from "../ui/list-table";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { Skeleton } from "../ui/skeleton";
import { Td } from "../ui/table";
import { KeyIcon, TrashIcon } from "../icons";
import { DirectoryIcon } from "./icon";
import { providerLabel } from "./provider-steps";
import { DIRECTORIES_PAGE_SIZE, directoriesInput } from "./queries";
import { counted, LastRequest } from "./status";
import type { Directory } from "./types";
import { useDirectoryActions, type DirectoryActions } from "./use-directory-actions";

function columns(canWrite: boolean): ListColumn[] {
  return [
    { header: "Directory", skeleton: <Skeleton className="h-4 w-48" /> },
    { header: "Users", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-10" /> },
    { header: "Groups", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-10" /> },
    { header: "Last request", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-20" /> },
    enabledColumn,
    ...rowActionsColumn(canWrite),
  ];
}

function DirectoryRow({
  tenantId,
  directory,
  canWrite,
  actions,
}: {
  tenantId: string;
  directory: Directory;
  canWrite: boolean;
  actions: DirectoryActions;
}) {
  const { name } = directory;
  return (
    <ResourceRow
      attrs={{ "data-testid": "directory-row", "data-directory-id": directory.id }}
      name={name}
      href={consoleUrl.directory(tenantId, directory.id)}
      cells={
        <>
          <Td className="hidden tabular-nums sm:table-cell">{directory.user_count}</Td>
          <Td className="hidden tabular-nums sm:table-cell">{directory.group_count}</Td>
          <Td className="hidden md:table-cell">
            <LastRequest at={directory.last_request_at} />
          </Td>
        </>
      }
      toggle={switchOf(actions, directory, name, canWrite)}
      actions={
        canWrite
          ? [
              {
                icon: KeyIcon,
                title: "Rotate token",
                label: `Rotate the SCIM token of ${name}`,
                onClick: () => actions.askRotate(directory),
              },
              { icon: TrashIcon, title: "Delete", label: `Delete ${name}`, onClick: () => actions.askDelete(directory) },
            ]
          : null
      }
    >
      <p className="text-xs text-slate-600">{providerLabel(directory.provider)}</p>
      <p className="text-xs text-slate-600 sm:hidden">
        {counted(directory.user_count, "user")} · {counted(directory.group_count, "group")}
      </p>
    </ResourceRow>
  );
}

/** A tenant's directories: the list, and for tenant admins creating, switching, rotating and deleting them. */
export function DirectoriesView({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { canWrite, loading } = useTenantRole(tenantId);
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const query = useQuery({ ...trpc.directories.list.queryOptions(directoriesInput(tenantId, position.cursor)), ...keepPage });
  const actions = useDirectoryActions(tenantId, {
    onCreatedClosed: (directory) => router.push(consoleUrl.directory(tenantId, directory.id)),
  });

  return (
    <>
      <ListCard
        id="directories"
        title="Directory Sync"
        description="Your customers' identity providers (Okta, Entra ID, …) push people and groups here over SCIM: who joins gets a role, who leaves loses access at once."
        readOnlyDescription="People and groups your identity providers push here over SCIM. You have view-only access, so you cannot change them."
        canWrite={canWrite}
        loadingRole={loading}
        add={{ label: "Add directory", onClick: actions.add }}
      >
        <ListTable
          label="Directories"
          columns={columns(canWrite)}
          query={query}
          position={position}
          onMove={setPosition}
          pageSize={DIRECTORIES_PAGE_SIZE}
          empty={
            <EmptyState
              icon={<DirectoryIcon className="size-6" />}
              title="No directories yet"
              description={
                canWrite
                  ? "Add a directory, then paste its SCIM URL and token into your identity provider: it will create, update and deactivate people here as it does there."
                  : "A tenant admin can add one and connect an identity provider to it."
              }
              action={canWrite ? <AddButton label="Add your first directory" onClick={actions.add} /> : null}
            />
          }
          pastEnd={{ noun: "directories", reason: "deleted" }}
          renderRow={(directory) => (
            <DirectoryRow key={directory.id} tenantId={tenantId} directory={directory} canWrite={canWrite} actions={actions} />
          )}
        />
      </ListCard>
      {canWrite ? <SetupLinksCard tenantId={tenantId} intent="directory_sync" /> : null}
      {actions.dialogs}
    </>
  );
}
