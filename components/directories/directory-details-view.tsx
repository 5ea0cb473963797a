"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTenantRole } from "../console/use-tenant-role";
import { messageOf, statusOf, useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { buttonClasses, Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { CopyButton } from "../ui/copy-button";
import { EmptyState } from "../ui/empty-state";
import { LoadError } from "../ui/list-states";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Switch } from "../ui/switch";
import { AlertIcon, ChevronLeftIcon, KeyIcon, TrashIcon } from "../icons";
import { GroupsSection } from "./groups-section";
import { PROVIDER_STEPS, providerLabel } from "./provider-steps";
import { directoryGroupsInput, type DirectoryTab } from "./queries";
import { RequestsSection } from "./requests-section";
import { RoleMappingsEditor } from "./role-mappings-editor";
import { SectionTabs } from "./section-tabs";
import { PasteValue, SetupSteps } from "./setup-steps";
import { counted, LastRequest } from "./status";
import type { Directory } from "./types";
import { useDirectoryActions } from "./use-directory-actions";
import { UsersSection } from "./users-section";

export function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      className="mb-4 inline-flex items-center gap-1 rounded text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ChevronLeftIcon className="size-4" />
      {children}
    </Link>
  );
}

/** Where the IdP's requests go, and its steps; the token itself was shown once, so only its hint is here. */
function SetupCard({ directory, canWrite }: { directory: Directory; canWrite: boolean }) {
  const guide = PROVIDER_STEPS[directory.provider];
  return (
    <Card aria-labelledby="setup-title">
      <CardHeader
        as="h3"
        title={<span id="setup-title">Connect {guide.name}</span>}
        description={
          directory.last_request_at
            ? `${guide.name} has called; these steps stay here for reference.`
            : `No request from ${guide.name} yet. Follow these steps in its admin console.`
        }
      />
      <div className="px-4 py-4 sm:px-6">
        <SetupSteps
          provider={directory.provider}
          values={
            <div className="space-y-3">
              <PasteValue label={guide.labels.url} value={directory.scim_base_url} testId="scim-base-url" />
              <p className="text-slate-600">
                {guide.labels.token}: the token shown when the directory was created (ends in{" "}
                <code className="font-mono text-xs text-slate-800">{directory.token_hint}</code>).
                {canWrite ? " Lost it? Rotate the token to get a new one." : null}
              </p>
            </div>
          }
        />
      </div>
    </Card>
  );
}

function Overview({
  tenantId,
  directory,
  canWrite,
  onSave,
}: {
  tenantId: string;
  directory: Directory;
  canWrite: boolean;
  onSave: Parameters<typeof RoleMappingsEditor>[0]["onSave"];
}) {
  const trpc = useTRPC();
  // Suggestions for the mapping rows: the directory's first groups, by name.
  const groups = useQuery({
    ...trpc.directories.listGroups.queryOptions({ ...directoryGroupsInput(tenantId, directory.id, ""), page_size: 100 }),
  });
  return (
    <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
      <RoleMappingsEditor
        directory={directory}
        canWrite={canWrite}
        groupNames={groups.data?.results.map((group) => group.name) ?? []}
        onSave={onSave}
      />
      <SetupCard directory={directory} canWrite={canWrite} />
    </div>
  );
}

/** One directory: its status and the admin's actions on it, then a section (overview, users, groups, sync activity). */
export function DirectoryDetailsView({ tenantId, directoryId, tab }: { tenantId: string; directoryId: string; tab: DirectoryTab }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { canWrite, loading } = useTenantRole(tenantId);
  const query = useQuery(trpc.directories.get.queryOptions({ tenant_id: tenantId, directory_id: directoryId }));
  const actions = useDirectoryActions(tenantId, { onDeleted: () => router.replace(consoleUrl.directories(tenantId)) });
  const back = <BackLink href={consoleUrl.directories(tenantId)}>All directories</BackLink>;

  if (query.isPending) {
    return (
      <>
        {back}
        <Card aria-busy="true">
          <div className="space-y-4 p-6">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-4 w-1/3" />
          </div>
        </Card>
      </>
    );
  }

  if (query.isError) {
    return (
      <>
        {back}
        <Card>
          {statusOf(query.error) === 404 ? (
            <EmptyState
              icon={<AlertIcon className="size-6" />}
              title="This directory does not exist"
              description="It may have been deleted. Pick one from the list."
              action={
                <Link href={consoleUrl.directories(tenantId)} className={buttonClasses("secondary")}>
                  Back to directories
                </Link>
              }
            />
          ) : (
            <LoadError
              title="The directory could not be loaded"
              message={messageOf(query.error)}
              onRetry={() => query.refetch()}
              retrying={query.isFetching}
            />
          )}
        </Card>
      </>
    );
  }

  const directory = query.data;
  return (
    <>
      {back}
      <div className="space-y-6">
        <Card aria-labelledby="directory-title">
          <CardHeader
            title={
              <span id="directory-title" className="wrap-anywhere">
                {directory.name}
              </span>
            }
            description={providerLabel(directory.provider)}
            actions={canWrite ? null : loading ? null : <Badge>Read-only</Badge>}
          />
          <div className="space-y-5 px-4 py-4 sm:px-6">
            {canWrite ? (
              <div className="flex flex-wrap gap-2">
                <Button variant="secondary" onClick={() => actions.askRotate(directory)}>
                  <KeyIcon className="size-4" />
                  Rotate token
                </Button>
                <Button variant="secondary" onClick={() => actions.askDelete(directory)}>
                  <TrashIcon className="size-4" />
                  Delete
                </Button>
              </div>
            ) : null}
            <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-4">
              <Item term="Status">
                <div className="flex items-start gap-3">
                  <Switch
                    checked={directory.enabled}
                    onCheckedChange={(on) => actions.setEnabled(directory, on)}
                    busy={actions.switching(directory)}
                    disabled={!canWrite}
                    aria-label={`Enable ${directory.name}`}
                  />
                  <span data-testid="directory-status" data-enabled={directory.enabled}>
                    {directory.enabled ? "Enabled" : "Disabled: its IdP's requests get 401"}
                  </span>
                </div>
              </Item>
              <Item term="Last request">
                <LastRequest at={directory.last_request_at} />
              </Item>
              <Item term="Users and groups">
                <span data-testid="directory-counts">
                  {counted(directory.user_count, "user")} · {counted(directory.group_count, "group")}
                </span>
              </Item>
              <Item term="Token">
                <code className="font-mono text-xs text-slate-800">••••{directory.token_hint}</code>
              </Item>
              <Item term="Directory ID">
                <span className="inline-flex max-w-full items-start gap-1">
                  <code className="font-mono text-xs break-all text-slate-800">{directory.id}</code>
                  <CopyButton value={directory.id} label="Copy the directory ID" className="-my-1.5 shrink-0" />
                </span>
              </Item>
              <Item term="Created">
                <RelativeTime iso={directory.created_at} />
              </Item>
            </dl>
          </div>
        </Card>

        <SectionTabs
          tenantId={tenantId}
          directoryId={directory.id}
          active={tab}
          counts={{ users: directory.user_count, groups: directory.group_count }}
        />
        {tab === "overview" ? (
          <Overview tenantId={tenantId} directory={directory} canWrite={canWrite} onSave={(roles) => actions.saveRoles(directory, roles)} />
        ) : tab === "users" ? (
          <UsersSection tenantId={tenantId} directory={directory} />
        ) : tab === "groups" ? (
          <GroupsSection tenantId={tenantId} directory={directory} />
        ) : (
          <RequestsSection tenantId={tenantId} directory={directory} canRead={canWrite} loadingRole={loading} />
        )}
      </div>
      {actions.dialogs}
    </>
  );
}
