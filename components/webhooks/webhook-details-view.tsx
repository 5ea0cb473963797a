"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTenantRole } from "../console/use-tenant-role";
import { switchOf } from "../resource/parts";
import { DetailsCard, DetailsFrame } from "../resource/details-page";
import { EnabledFact, Fact, Facts, IdFact } from "../resource/facts";
import { useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { RelativeTime } from "../ui/relative-time";
import { KeyIcon, PencilIcon, RefreshIcon, SendIcon, TrashIcon } from "../icons";
import { DeliveriesView } from "./deliveries-view";
import { subscribesToAll } from "./event-kinds";
import { paceLabels } from "./pace-fields";
import { WebhookNoticeBanner } from "./notice-banner";
import { RecoverDialog } from "./recover-dialog";
import { LastDelivery, WebhookStatus } from "./status";
import type { Webhook } from "./types";
import { useWebhookActions, type WebhookActions } from "./use-webhook-actions";

/** What the webhook is set to: status, last delivery, pace, secret, events and filter. */
function WebhookFacts({ webhook, canWrite, actions }: { webhook: Webhook; canWrite: boolean; actions: WebhookActions }) {
  return (
    <Facts>
      <EnabledFact toggle={switchOf(actions, webhook, webhook.url, canWrite)}>
        <WebhookStatus webhook={webhook} />
      </EnabledFact>
      <Fact term="Last delivery">
        <LastDelivery last={webhook.last_delivery} />
      </Fact>
      <Fact term="Created">
        <RelativeTime iso={webhook.created_at} />
      </Fact>
      <IdFact term="Webhook ID" id={webhook.id} copyLabel="Copy the webhook ID" wide />
      <Fact term="Delivery" className="sm:col-span-2">
        <ul data-testid="webhook-pace" className="space-y-0.5">
          <li>{paceLabels(webhook).rate}</li>
          <li>{paceLabels(webhook).order}</li>
        </ul>
      </Fact>
      <Fact term="Signing secret">
        <code className="font-mono text-xs text-slate-800">{webhook.secret_hint ? `••••${webhook.secret_hint}` : "••••"}</code>
      </Fact>
      <Fact term="Events" className="sm:col-span-2 lg:col-span-3">
        {subscribesToAll(webhook.events) ? (
          "All events"
        ) : (
          <ul className="flex flex-wrap gap-1.5">
            {webhook.events.map((kind) => (
              <li key={kind}>
                <Badge className="font-mono">{kind}</Badge>
              </li>
            ))}
          </ul>
        )}
      </Fact>
      <Fact term="Filter" className="sm:col-span-2 lg:col-span-3">
        {webhook.filter ? <code className="font-mono text-xs break-all text-slate-800">{webhook.filter}</code> : "None: every event above"}
      </Fact>
    </Facts>
  );
}

/** One webhook: what it is set to, the admin's actions on it, and its deliveries below. */
export function WebhookDetailsView({
  tenantId,
  webhookId,
  openDeliveryId,
}: {
  tenantId: string;
  webhookId: string;
  openDeliveryId?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const { canWrite, loading } = useTenantRole(tenantId);
  const query = useQuery(trpc.webhooks.get.queryOptions({ tenant_id: tenantId, webhook_id: webhookId }));
  const actions = useWebhookActions(tenantId, { onDeleted: () => router.replace(consoleUrl.webhooks(tenantId)) });
  const [recovering, setRecovering] = useState(false);

  return (
    <DetailsFrame
      query={query}
      list={{ href: consoleUrl.webhooks(tenantId), back: "All webhooks" }}
      noun="webhook"
      missingBack="webhooks"
      banner={(webhook) => (
        <WebhookNoticeBanner tenantId={tenantId} webhook={webhook} canWrite={canWrite} onRecover={() => setRecovering(true)} />
      )}
      dialogs={
        <>
          {actions.dialogs}
          {recovering ? <RecoverDialog tenantId={tenantId} webhookId={webhookId} onClose={() => setRecovering(false)} /> : null}
        </>
      }
    >
      {(webhook) => (
        <>
          <DetailsCard
            id="webhook"
            title={webhook.url}
            description={webhook.description ?? undefined}
            canWrite={canWrite}
            loadingRole={loading}
            actions={[
              {
                label: "Send test event",
                icon: SendIcon,
                primary: true,
                onClick: () => actions.sendTest(webhook),
                loading: actions.testing(webhook),
                disabled: !webhook.enabled,
                describedBy: webhook.enabled ? undefined : "webhook-test-hint",
              },
              { label: "Edit", icon: PencilIcon, onClick: () => actions.edit(webhook) },
              { label: "Rotate secret", icon: KeyIcon, onClick: () => actions.askRotate(webhook) },
              {
                label: "Recover failed deliveries since…",
                icon: RefreshIcon,
                onClick: () => setRecovering(true),
                disabled: !webhook.enabled,
              },
              { label: "Delete", icon: TrashIcon, onClick: () => actions.askDelete(webhook) },
            ]}
          >
            {canWrite && !webhook.enabled ? (
              <p id="webhook-test-hint" className="-mt-3 text-xs text-slate-600">
                Enable the webhook to send a test event or recover failed deliveries.
              </p>
            ) : null}
            <WebhookFacts webhook={webhook} canWrite={canWrite} actions={actions} />
          </DetailsCard>

          <DeliveriesView
            tenantId={tenantId}
            webhookId={webhook.id}
            canWrite={canWrite}
            webhookEnabled={webhook.enabled}
            waits={webhook.ordering === "ordered" ? "ordered" : webhook.rate_limit_per_second ? "paced" : null}
            openDeliveryId={openDeliveryId}
          />
        </>
      )}
    </DetailsFrame>
  );
}
