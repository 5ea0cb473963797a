"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SsoProvider } from "@/server/sso/schemas";
import { useStepUp } from "../auth/step-up-dialog";
import { useTenantRole } from "../console/use-tenant-role";
import { messageOf, useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { useToast } from "../ui/toast";
import { PlusIcon } from "../icons";
import { ProviderDialog } from "./provider-dialog";
import { ProvidersTable } from "./providers-table";
import { CertificateBanner } from "./certificate-banner";
import { SetupLinksCard } from "../setup/setup-links-card";
import { withStepUp } from "../auth/with-step-up";

type Editing = { provider?: SsoProvider } | null;

/** A tenant's SSO providers: the list, and for tenant admins adding, editing, switching and deleting them. */
export function SsoView({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const { canWrite, loading } = useTenantRole(tenantId);
  const { ensureSteppedUp, dialog: stepUpDialog } = useStepUp();
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<SsoProvider | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [highlightId, setHighlightId] = useState<string | null>(null);

  const remove = useMutation(
    trpc.tenantSso.delete.mutationOptions({ onSettled: () => queryClient.invalidateQueries(trpc.tenantSso.pathFilter()) }),
  );

  const add = () => setEditing({});

  async function confirmDelete(provider: SsoProvider) {
    setDeleteError(null);
    try {
      const deleted = await withStepUp(ensureSteppedUp, `delete ${provider.name}`, () =>
        remove.mutateAsync({ tenant_id: tenantId, provider_id: provider.id }),
      );
      if (!deleted) return;
      setDeleting(null);
      notify(
        <>
          <span className="font-medium">{provider.name}</span> was deleted.
        </>,
      );
    } catch (error) {
      setDeleteError(messageOf(error));
    }
  }

  return (
    <>
      <CertificateBanner tenantId={tenantId} canWrite={canWrite} onEdit={(provider) => setEditing({ provider })} />
      <Card aria-labelledby="sso-title">
        <CardHeader
          title={<span id="sso-title">SSO providers</span>}
          description={
            canWrite || loading
              ? "Identity providers your people sign in through, chosen by their email domain."
              : "Identity providers your people sign in through. You have view-only access, so you cannot change them."
          }
          actions={
            canWrite ? (
              <Button onClick={add}>
                <PlusIcon className="size-4" />
                Add provider
              </Button>
            ) : loading ? null : (
              <Badge>Read-only</Badge>
            )
          }
        />
        <ProvidersTable
          tenantId={tenantId}
          position={position}
          onMove={setPosition}
          canWrite={canWrite}
          ensureSteppedUp={ensureSteppedUp}
          onEdit={(provider) => setEditing({ provider })}
          onDelete={(provider) => {
            setDeleteError(null);
            setDeleting(provider);
          }}
          highlightId={highlightId}
          emptyAction={
            canWrite ? (
              <Button onClick={add}>
                <PlusIcon className="size-4" />
                Add your first provider
              </Button>
            ) : null
          }
        />
      </Card>
      {canWrite ? <SetupLinksCard tenantId={tenantId} intent="sso" /> : null}

      {editing ? (
        <ProviderDialog
          tenantId={tenantId}
          provider={editing.provider}
          ensureSteppedUp={ensureSteppedUp}
          onClose={() => setEditing(null)}
          onSaved={(provider, created) => {
            setEditing(null);
            setHighlightId(provider.id);
            if (created) setPosition(FIRST_PAGE);
            notify(
              <>
                <span className="font-medium">{provider.name}</span>{" "}
                {created
                  ? provider.metadata_source === "xml"
                    ? "was added from its metadata file."
                    : "was added. Its metadata is being checked."
                  : "was saved."}
                {provider.client_secret_dropped ? " Its client secret was dropped with the old URL: enter the client secret again." : null}
              </>,
              provider.client_secret_dropped ? "info" : undefined,
            );
          }}
        />
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete provider"
          pending={remove.isPending}
          error={deleteError}
          onConfirm={() => confirmDelete(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>
            <span className="font-medium text-slate-900">{deleting.name}</span> stops working at once
            {deleting.domains.length ? (
              <>
                : people at <span className="font-medium text-slate-900">{deleting.domains.join(", ")}</span> can no longer sign in through
                it
              </>
            ) : null}
            . This cannot be undone.
          </p>
          <p>You will be asked for your password first if you have not confirmed it in the last 10 minutes.</p>
        </ConfirmDialog>
      ) : null}

      {stepUpDialog}
    </>
  );
}
