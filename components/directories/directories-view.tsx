"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTenantRole } from "../console/use-tenant-role";
import { SetupLinksCard } from "../setup/setup-links-card";
import { useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { actionsColumn, keepPage, ListTable, type ListColumn } from "../ui/list-table";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { Skeleton } from "../ui/skeleton";
import { Switch } from "../ui/switch";
import { Td, Tr } from "../ui/table";
import { KeyIcon, PlusIcon, TrashIcon } from "../icons";
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
    { header: "Enabled", skeleton: <Skeleton className="h-6 w-11 rounded-full" /> },
    ...(canWrite ? [actionsColumn("hidden sm:table-cell")] : []),
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
  return (
    <Tr data-testid="directory-row" data-directory-id={directory.id}>
      <Td className="w-full max-w-0">
        <Link
          href={consoleUrl.directory(tenantId, directory.id)}
          className="block font-medium whitespace-normal wrap-anywhere text-slate-900 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {directory.name}
        </Link>
        <p className="text-xs text-slate-600">{providerLabel(directory.provider)}</p>
        <p className="text-xs text-slate-600 sm:hidden">
          {counted(directory.user_count, "user")} · {counted(directory.group_count, "group")}
        </p>
      </Td>
      <Td className="hidden tabular-nums sm:table-cell">{directory.user_count}</Td>
      <Td className="hidden tabular-nums sm:table-cell">{directory.group_count}</Td>
      <Td className="hidden md:table-cell">
        <LastRequest at={directory.last_request_at} />
      </Td>
      <Td>
        <Switch
          checked={directory.enabled}
          onCheckedChange={(on) => actions.setEnabled(directory, on)}
          busy={actions.switching(directory)}
          disabled={!canWrite}
          aria-label={`Enable ${directory.name}`}
        />
      </Td>
      {canWrite ? (
        <Td className="hidden sm:table-cell">
          <div className="flex justify-end gap-0.5">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => actions.askRotate(directory)}
              title="Rotate token"
              aria-label={`Rotate the SCIM token of ${directory.name}`}
            >
              <KeyIcon className="size-4" />
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => actions.askDelete(directory)}
              title="Delete"
              aria-label={`Delete ${directory.name}`}
            >
              <TrashIcon className="size-4" />
            </Button>
          </div>
        </Td>
      ) : null}
    </Tr>
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

  const addButton = (label: string) => (
    <Button onClick={actions.add}>
      <PlusIcon className="size-4" />
      {label}
    </Button>
  );
  return (
    <>
      <Card aria-labelledby="directories-title">
        <CardHeader
          title={<span id="directories-title">Directory Sync</span>}
          description={
            canWrite || loading
              ? "Your customers' identity providers (Okta, Entra ID, …) push people and groups here over SCIM: who joins gets a role, who leaves loses access at once."
              : "People and groups your identity providers push here over SCIM. You have view-only access, so you cannot change them."
          }
          actions={canWrite ? addButton("Add directory") : loading ? null : <Badge>Read-only</Badge>}
        />
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
              action={canWrite ? addButton("Add your first directory") : null}
            />
          }
          pastEnd={{ noun: "directories", reason: "deleted" }}
          renderRow={(directory) => (
            <DirectoryRow key={directory.id} tenantId={tenantId} directory={directory} canWrite={canWrite} actions={actions} />
          )}
        />
      </Card>
      {canWrite ? <SetupLinksCard tenantId={tenantId} intent="directory_sync" /> : null}
      {actions.dialogs}
    </>
  );
}
