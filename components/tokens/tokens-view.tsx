"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { tokenDisplay, type ApiToken } from "@/server/tokens/schemas";
import { messageOf, useTRPC } from "../trpc";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { PageHeader } from "../ui/page-header";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { useToast } from "../ui/toast";
import { PlusIcon } from "../icons";
import { CreateTokenDialog, type CreatedToken } from "./create-token-dialog";
import { NewTokenPanel } from "./new-token-panel";
import { TokensTable } from "./tokens-table";
import { useTenantChoices } from "./use-tenant-choices";

/** API tokens page: the user's tokens, creating one (its value shown once) and revoking. */
export function TokensView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const tenants = useTenantChoices();
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  const refresh = () => queryClient.invalidateQueries(trpc.tokens.list.pathFilter());
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh }));

  const createButton = (
    <Button onClick={() => setCreating(true)}>
      <PlusIcon className="size-4" />
      Create token
    </Button>
  );

  return (
    <>
      <PageHeader
        title="API tokens"
        description="Tokens for the REST API. Each acts as you, with your current roles, narrowed by its scope."
        actions={createButton}
      />
      <div className="space-y-6">
        {created ? <NewTokenPanel token={created} onDismiss={() => setCreated(null)} /> : null}
        <Card aria-labelledby="tokens-title">
          <CardHeader title={<span id="tokens-title">Your tokens</span>} />
          <TokensTable
            position={position}
            onMove={setPosition}
            tenantName={tenants.nameOf}
            highlightId={created?.id}
            onRevoke={(token) => {
              revoke.reset();
              setRevoking(token);
            }}
            emptyAction={createButton}
          />
        </Card>
      </div>

      {creating ? (
        <CreateTokenDialog
          tenants={tenants}
          onClose={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
            setPosition(FIRST_PAGE);
            void refresh();
          }}
        />
      ) : null}

      {revoking ? (
        <ConfirmDialog
          title="Revoke token?"
          confirmLabel="Revoke token"
          pending={revoke.isPending}
          error={revoke.isError ? messageOf(revoke.error) : null}
          onCancel={() => setRevoking(null)}
          onConfirm={() =>
            revoke.mutate(
              { token_id: revoking.id },
              {
                onSuccess: () => {
                  if (created?.id === revoking.id) setCreated(null);
                  setRevoking(null);
                  notify(
                    <>
                      Token <span className="font-medium">{revoking.name}</span> revoked.
                    </>,
                  );
                },
              },
            )
          }
        >
          <p>
            Anything using <span className="font-medium text-slate-900">{revoking.name}</span> (
            <code className="font-mono text-xs">{tokenDisplay(revoking)}</code>) stops working at once. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
