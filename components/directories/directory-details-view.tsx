"use client";

import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTenantRole } from "../console/use-tenant-role";
import { switchOf } from "../resource/parts";
import { DetailsCard, DetailsFrame } from "../resource/details-page";
import { EnabledFact, Fact, Facts, IdFact } from "../resource/facts";
import { useTRPC } from "../trpc";
import { Card, CardHeader } from "../ui/card";
import { RelativeTime } from "../ui/relative-time";
import { KeyIcon, TrashIcon } from "../icons";
import { GroupsSection } from "./groups-section";
import { PROVIDER_STEPS, providerLabel } from "./provider-steps";
import { directoryGroupsInput, type DirectoryTab } from "./queries";
import { RequestsSection } from "./requests-section";
import { RoleMappingsEditor } from "./role-mappings-editor";
import { SectionTabs } from "./section-tabs";
import { PasteValue, SetupSteps } from "./setup-steps";
import { counted, LastRequest } from "./status";
import type { Directory } from "./types";
import { useDirectoryActions, type DirectoryActions } from "./use-directory-actions";
import { UsersSection } from "./users-section";

/** Whether it is on, when its IdP last called, what it holds, and its token's hint. */
function DirectoryFacts({ directory, canWrite, actions }: { directory: Directory; canWrite: boolean; actions: DirectoryActions }) {
  return (
    <Facts columns={4}>
      <EnabledFact toggle={switchOf(actions, directory, directory.name, canWrite)}>
        <span data-testid="directory-status" data-enabled={directory.enabled}>
          {directory.enabled ? "Enabled" : "Disabled: its IdP's requests get 401"}
        </span>
      </EnabledFact>
      <Fact term="Last request">
        <LastRequest at={directory.last_request_at} />
      </Fact>
      <Fact term="Users and groups">
        <span data-testid="directory-counts">
          {counted(directory.user_count, "user")} · {counted(directory.group_count, "group")}
        </span>
      </Fact>
      <Fact term="Token">
        <code className="font-mono text-xs text-slate-800">••••{directory.token_hint}</code>
      </Fact>
      <IdFact term="Directory ID" id={directory.id} copyLabel="Copy the directory ID" />
      <Fact term="Created">
        <RelativeTime iso={directory.created_at} />
      </Fact>
    </Facts>
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

  return (
    <DetailsFrame
      query={query}
      list={{ href: consoleUrl.directories(tenantId), back: "All directories" }}
      noun="directory"
      missingBack="directories"
      dialogs={actions.dialogs}
    >
      {(directory) => (
        <>
          <DetailsCard
            id="directory"
            title={directory.name}
            description={providerLabel(directory.provider)}
            canWrite={canWrite}
            loadingRole={loading}
            actions={[
              { label: "Rotate token", icon: KeyIcon, onClick: () => actions.askRotate(directory) },
              { label: "Delete", icon: TrashIcon, onClick: () => actions.askDelete(directory) },
            ]}
          >
            <DirectoryFacts directory={directory} canWrite={canWrite} actions={actions} />
          </DetailsCard>

          <SectionTabs
            tenantId={tenantId}
            directoryId={directory.id}
            active={tab}
            counts={{ users: directory.user_count, groups: directory.group_count }}
          />
          {tab === "overview" ? (
            <Overview
              tenantId={tenantId}
              directory={directory}
              canWrite={canWrite}
              onSave={(roles) => actions.saveRoles(directory, roles)}
            />
          ) : tab === "users" ? (
            <UsersSection tenantId={tenantId} directory={directory} />
          ) : tab === "groups" ? (
            <GroupsSection tenantId={tenantId} directory={directory} />
          ) : (
            <RequestsSection tenantId={tenantId} directory={directory} canRead={canWrite} loadingRole={loading} />
          )}
        </>
      )}
    </DetailsFrame>
  );
}
