"use client";

import { useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Domain } from "@/server/domains/schemas";
import { useTenantRole } from "../console/use-tenant-role";
import { SetupLinksCard } from "../setup/setup-links-card";
import { messageOf, useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { EmptyState } from "../ui/empty-state";
import { LoadError, PagePastEnd } from "../ui/list-states";
import { FIRST_PAGE, Pagination, startOf, type TablePosition } from "../ui/pagination";
import { Skeleton } from "../ui/skeleton";
import { useToast } from "../ui/toast";
import { PlusIcon } from "../icons";
import { AddDomainDialog, OverrideDialog } from "./domain-dialogs";
import { DomainItem } from "./domain-item";
import { GlobeIcon } from "./icon";
import { DOMAINS_PAGE_SIZE, domainsInput } from "./queries";
import { describeCheck } from "./state";

type Open = { kind: "add" } | { kind: "override" | "delete"; domain: Domain } | null;

const WHAT_FOR =
  "Prove the tenant owns an email domain by publishing a DNS TXT record. Only verified domains will route their people's sign-ins to this tenant's SSO provider.";

/** A tenant's domains: the list with each TXT record, and for admins adding, verifying and removing them. */
export function DomainsView({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const { canWrite, loading } = useTenantRole(tenantId);
  const me = useQuery(trpc.account.me.queryOptions({}));
  const isOperator = me.data?.user.platform_role === "operator";
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const [open, setOpen] = useState<Open>(null);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const query = useQuery({ ...trpc.domains.list.queryOptions(domainsInput(tenantId, position.cursor)), placeholderData: keepPreviousData });
  const invalidate = () => queryClient.invalidateQueries(trpc.domains.pathFilter());
  const verify = useMutation(trpc.domains.verify.mutationOptions({ onSettled: invalidate }));
  const remove = useMutation(trpc.domains.delete.mutationOptions({ onSettled: invalidate }));
  const autoJoin = useMutation(trpc.domains.update.mutationOptions({ onSettled: invalidate }));

  function setAutoJoin(domain: Domain, on: boolean) {
    autoJoin.mutate(
      { tenant_id: tenantId, domain_id: domain.id, auto_join: on },
      {
        onSuccess: () => notify(on ? `New people at ${domain.domain} now join by signing in.` : `Auto-join is off for ${domain.domain}.`),
        onError: (error) => notify(`Auto-join for ${domain.domain} was not changed: ${messageOf(error)}`, "danger"),
      },
    );
  }

  function verifyNow(domain: Domain) {
    verify.mutate(
      { tenant_id: tenantId, domain_id: domain.id },
      {
        onSuccess: (checked) => {
          const { tone, text } = describeCheck(checked);
          notify(<span data-testid="verify-result">{text}</span>, tone);
        },
        onError: (error) => notify(`${domain.domain} could not be verified: ${messageOf(error)}`, "danger"),
      },
    );
  }

  function confirmDelete(domain: Domain) {
    remove.mutate(
      { tenant_id: tenantId, domain_id: domain.id },
      {
        onSuccess: () => {
          setOpen(null);
          notify(`${domain.domain} was removed.`);
        },
        onError: (error) => setDeleteError(messageOf(error)),
      },
    );
  }

  const addButton = (label: string) => (
    <Button onClick={() => setOpen({ kind: "add" })}>
      <PlusIcon className="size-4" />
      {label}
    </Button>
  );

  function body() {
    if (query.isPending) {
      return (
        <div className="space-y-3 px-4 py-4 sm:px-6" aria-busy="true">
          <Skeleton className="h-5 w-48" />
          <Skeleton className="h-4 w-full max-w-xl" />
          <Skeleton className="h-4 w-full max-w-xl" />
        </div>
      );
    }
    if (query.isError) {
      return (
        <LoadError
          title="Domains could not be loaded"
          message={messageOf(query.error)}
          onRetry={() => query.refetch()}
          retrying={query.isFetching}
        />
      );
    }
    const page = query.data;
    if (page.results.length === 0) {
      return startOf(page, position) === 0 && !position.cursor ? (
        <EmptyState
          icon={<GlobeIcon className="size-6" />}
          title="No domains yet"
          description={WHAT_FOR}
          action={canWrite ? addButton("Add your first domain") : null}
        />
      ) : (
        <PagePastEnd noun="domains" reason="removed" onFirstPage={() => setPosition(FIRST_PAGE)} />
      );
    }
    return (
      <>
        <ul aria-label="Domains" className="divide-y divide-slate-200" aria-busy={query.isPlaceholderData || undefined}>
          {page.results.map((domain) => (
            <DomainItem
              key={domain.id}
              domain={domain}
              canWrite={canWrite}
              isOperator={isOperator}
              verifying={verify.isPending && verify.variables?.domain_id === domain.id && !verify.variables.override}
              highlight={domain.id === highlightId}
              onVerify={() => verifyNow(domain)}
              joining={autoJoin.isPending && autoJoin.variables?.domain_id === domain.id}
              onAutoJoin={(on) => setAutoJoin(domain, on)}
              onOverride={() => setOpen({ kind: "override", domain })}
              onDelete={() => {
                setDeleteError(null);
                setOpen({ kind: "delete", domain });
              }}
            />
          ))}
        </ul>
        <Pagination page={page} position={position} pageSize={DOMAINS_PAGE_SIZE} onMove={setPosition} busy={query.isPlaceholderData} />
      </>
    );
  }

  return (
    <>
      <Card aria-labelledby="domains-title">
        <CardHeader
          title={<span id="domains-title">Domains</span>}
          description={canWrite || loading ? WHAT_FOR : `${WHAT_FOR} You have view-only access, so you cannot change them.`}
          actions={canWrite ? addButton("Add domain") : loading ? null : <Badge>Read-only</Badge>}
        />
        {body()}
      </Card>
      {canWrite ? <SetupLinksCard tenantId={tenantId} intent="domain_verification" /> : null}

      {open?.kind === "add" ? (
        <AddDomainDialog
          tenantId={tenantId}
          onClose={() => setOpen(null)}
          onAdded={(domain) => {
            setOpen(null);
            setHighlightId(domain.id);
            setPosition(FIRST_PAGE);
            notify(`${domain.domain} was added: publish its TXT record, then verify.`);
          }}
        />
      ) : null}
      {open?.kind === "override" ? (
        <OverrideDialog
          tenantId={tenantId}
          domain={open.domain}
          onClose={() => setOpen(null)}
          onDone={(domain) => {
            setOpen(null);
            notify(`${domain.domain} is marked verified.`, "success");
          }}
        />
      ) : null}
      {open?.kind === "delete" ? (
        <ConfirmDialog
          title={`Remove ${open.domain.domain}?`}
          confirmLabel="Remove domain"
          pending={remove.isPending}
          error={deleteError}
          onConfirm={() => confirmDelete(open.domain)}
          onCancel={() => setOpen(null)}
        >
          <p>
            {open.domain.state === "verified"
              ? "The tenant's claim on this domain ends, and another tenant may verify it. Adding it again needs a new DNS record."
              : "Its verification stops. Adding it again gives it a new DNS record."}
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
