"use client";

import { useState } from "react";
import { useTenantRole } from "../console/use-tenant-role";
import { ListCard } from "../resource/list-card";
import { AddButton } from "../resource/parts";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
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
      <ListCard
        id="webhooks"
        title="Webhooks"
        description="Endpoints that receive a signed POST for each event in this tenant, retried until they answer."
        readOnlyDescription="Endpoints that receive a signed POST for each event in this tenant. You have view-only access, so you cannot change them."
        canWrite={canWrite}
        loadingRole={loading}
        add={{ label: "Add webhook", onClick: actions.add }}
      >
        <WebhooksTable
          tenantId={tenantId}
          position={position}
          onMove={setPosition}
          canWrite={canWrite}
          actions={actions}
          highlightId={highlightId}
          emptyAction={canWrite ? <AddButton label="Add your first webhook" onClick={actions.add} /> : null}
        />
      </ListCard>
      {actions.dialogs}
    </>
  );
}
