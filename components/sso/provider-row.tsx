"use client";

import { useId, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SsoProvider } from "@/server/sso/schemas";
import { messageOf, useTRPC } from "../trpc";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { RelativeTime } from "../ui/relative-time";
import { Switch } from "../ui/switch";
import { Td, Tr } from "../ui/table";
import { useToast } from "../ui/toast";
import { ChevronDownIcon, PencilIcon, RefreshIcon, TrashIcon } from "../icons";
import { CertificateExpiry, CertificateWarning, MetadataStatusBadge } from "./metadata-status";
import { DomainList } from "./domain-list";
import { ProviderDetails } from "./provider-details";
import { SignInPanel } from "./signin-panel";
import { PROVIDER_TYPE_INFO, ProviderTypeIcon } from "./provider-types";
import { withStepUp } from "../auth/with-step-up";

interface ProviderRowProps {
  tenantId: string;
  provider: SsoProvider;
  canWrite: boolean;
  ensureSteppedUp: (action: string) => Promise<boolean>;
  onEdit: (provider: SsoProvider) => void;
  onDelete: (provider: SsoProvider) => void;
  highlight?: boolean;
}

const REFRESH_TONE = {
  valid: "success",
  pending: "info",
  invalid: "danger",
  unreachable: "danger",
} as const;

/** One provider: a summary row, and its metadata details below it when opened. */
export function ProviderRow({ tenantId, provider, canWrite, ensureSteppedUp, onEdit, onDelete, highlight }: ProviderRowProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const detailsId = useId();
  const [open, setOpen] = useState(false);
  const invalidate = () => queryClient.invalidateQueries(trpc.tenantSso.pathFilter());
  const update = useMutation(trpc.tenantSso.update.mutationOptions({ onSettled: invalidate }));
  const refresh = useMutation(trpc.tenantSso.refreshMetadata.mutationOptions({ onSettled: invalidate }));
  const ids = { tenant_id: tenantId, provider_id: provider.id };
  const name = <span className="font-medium">{provider.name}</span>;

  async function setEnabled(enabled: boolean) {
    const change = () => update.mutateAsync({ ...ids, enabled });
    try {
      // Enabling is immediate; disabling cuts people off, so it needs a fresh step-up (spec).
      const done = enabled ? await change().then(() => true) : await withStepUp(ensureSteppedUp, `disable ${provider.name}`, change);
      if (done)
        notify(
          <>
            {name} is {enabled ? "enabled" : "disabled"}.
          </>,
        );
    } catch (error) {
      notify(
        <>
          {name} could not be {enabled ? "enabled" : "disabled"}: {messageOf(error)}
        </>,
        "danger",
      );
    }
  }

  function refreshMetadata() {
    refresh.mutate(ids, {
      onSuccess: ({ metadata }) =>
        notify(
          metadata.status === "valid" ? (
            <>The metadata of {name} is valid.</>
          ) : (
            <>
              The metadata of {name} is {metadata.status}
              {metadata.error ? `: ${metadata.error}` : "."}
            </>
          ),
          REFRESH_TONE[metadata.status],
        ),
      onError: (error) =>
        notify(
          <>
            The metadata of {name} could not be checked: {messageOf(error)}
          </>,
          "danger",
        ),
    });
  }

  /** Icon buttons in the row; in the details on narrow screens, where they have room for words. */
  const actions = (labelled: boolean) => (
    <>
      <Button
        variant={labelled ? "secondary" : "ghost"}
        size="sm"
        onClick={refreshMetadata}
        loading={refresh.isPending}
        title={labelled ? undefined : "Refresh metadata"}
        aria-label={`Refresh metadata of ${provider.name}`}
      >
        {refresh.isPending ? null : <RefreshIcon className="size-4" />}
        {labelled ? "Refresh metadata" : null}
      </Button>
      <Button
        variant={labelled ? "secondary" : "ghost"}
        size="sm"
        onClick={() => onEdit(provider)}
        title={labelled ? undefined : "Edit"}
        aria-label={`Edit ${provider.name}`}
      >
        <PencilIcon className="size-4" />
        {labelled ? "Edit" : null}
      </Button>
      <Button
        variant={labelled ? "secondary" : "ghost"}
        size="sm"
        onClick={() => onDelete(provider)}
        title={labelled ? undefined : "Delete"}
        aria-label={`Delete ${provider.name}`}
      >
        <TrashIcon className="size-4" />
        {labelled ? "Delete" : null}
      </Button>
    </>
  );

  return (
    <>
      <Tr data-testid="provider-row" data-provider-id={provider.id} className={cx(highlight && "bg-indigo-50/60")}>
        <Td className="w-full max-w-0">
          <div className="flex items-center gap-3">
            <ProviderTypeIcon type={provider.provider_type} className={cx(!provider.enabled && "opacity-50")} />
            <div className="min-w-0">
              <button
                type="button"
                onClick={() => setOpen((o) => !o)}
                aria-expanded={open}
                aria-controls={detailsId}
                className="flex max-w-full items-start gap-1 rounded text-left font-medium text-slate-900 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                <span className="break-words whitespace-normal">{provider.name}</span>
                <ChevronDownIcon className={cx("mt-0.5 size-4 shrink-0 text-slate-500 transition-transform", open && "rotate-180")} />
              </button>
              <p className="truncate text-xs text-slate-600">{PROVIDER_TYPE_INFO[provider.provider_type].label}</p>
              <div className="mt-1 flex flex-wrap gap-1.5 sm:hidden">
                <MetadataStatusBadge metadata={provider.metadata} />
                <CertificateWarning provider={provider} />
              </div>
            </div>
          </div>
        </Td>
        <Td className="hidden xl:table-cell">
          <DomainList domains={provider.domains} className="max-w-56 min-w-40" />
        </Td>
        <Td className="hidden sm:table-cell">
          <MetadataStatusBadge metadata={provider.metadata} />
          <p className="mt-1 text-xs text-slate-600">
            {provider.metadata.checked_at ? <RelativeTime iso={provider.metadata.checked_at} /> : "Not checked yet"}
          </p>
        </Td>
        <Td className="hidden md:table-cell">
          <CertificateExpiry provider={provider} />
        </Td>
        <Td>
          <span className="inline-flex items-center gap-2">
            <Switch
              checked={provider.enabled}
              onCheckedChange={setEnabled}
              busy={update.isPending}
              disabled={!canWrite}
              aria-label={`Enable ${provider.name}`}
            />
            {/* The switch announces its state; this is for the eye. */}
            <span aria-hidden="true" className="hidden w-6 text-xs text-slate-600 sm:inline">
              {provider.enabled ? "On" : "Off"}
            </span>
          </span>
        </Td>
        {canWrite ? (
          <Td className="hidden sm:table-cell">
            <div className="flex justify-end gap-0.5">{actions(false)}</div>
          </Td>
        ) : null}
      </Tr>
      {open ? (
        <tr id={detailsId} className="bg-slate-50/70">
          <td colSpan={canWrite ? 6 : 5} className="px-4 py-4 sm:px-6">
            <div className="space-y-4">
              <SignInPanel tenantId={tenantId} provider={provider} canWrite={canWrite} />
              <ProviderDetails
                provider={provider}
                actions={
                  canWrite ? <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-3 sm:hidden">{actions(true)}</div> : null
                }
              />
            </div>
          </td>
        </tr>
      ) : null}
    </>
  );
}
