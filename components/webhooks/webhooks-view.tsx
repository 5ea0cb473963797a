"use client";

import { useState } from "react";
import { useTenantRole } from "../console/use-tenant-role";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { PlusIcon } from "../icons";
import { useWebhookActions } from "./use-webhook-actions";
import { WebhooksTable } from "./webhooks-table";

/** A tenant's webhooks: the list, and for tenant admins adding, switching, testing, editing and deleting them. */
export function WebhooksView({ tenantId }: { tenantId: string }) {
  const { canWrite, loading } = useTenantRole(tenantId);
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const actions = useWebhookActions(tenantId, {
    onSaved: (webhook, created) => {
      setHighlightId(webhook.id);
      if (created) setPosition(FIRST_PAGE);
    },
  });

  return (
    <>
      <Card aria-labelledby="webhooks-title">
        <CardHeader
          title={<span id="webhooks-title">Webhooks</span>}
          description={
            canWrite || loading
              ? "Endpoints that receive a signed POST for each event in this tenant, retried until they answer."
              : "Endpoints that receive a signed POST for each event in this tenant. You have view-only access, so you cannot change them."
          }
          actions={
            canWrite ? (
              <Button onClick={actions.add}>
                <PlusIcon className="size-4" />
                Add webhook
              </Button>
            ) : loading ? null : (
              <Badge>Read-only</Badge>
            )
          }
        />
        <WebhooksTable
          tenantId={tenantId}
          position={position}
          onMove={setPosition}
          canWrite={canWrite}
          actions={actions}
          highlightId={highlightId}
          emptyAction={
            canWrite ? (
              <Button onClick={actions.add}>
                <PlusIcon className="size-4" />
                Add your first webhook
              </Button>
            ) : null
          }
        />
      </Card>
      {actions.dialogs}
    </>
  );
}
