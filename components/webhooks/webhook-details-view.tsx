"use client";

import { useState, type ReactNode } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTenantRole } from "../console/use-tenant-role";
import { messageOf, statusOf, useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { buttonClasses, Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { cx } from "../ui/cx";
import { CopyButton } from "../ui/copy-button";
import { EmptyState } from "../ui/empty-state";
import { LoadError } from "../ui/list-states";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Switch } from "../ui/switch";
import { AlertIcon, ChevronLeftIcon, KeyIcon, PencilIcon, RefreshIcon, SendIcon, TrashIcon } from "../icons";
import { DeliveriesView } from "./deliveries-view";
import { subscribesToAll } from "./event-kinds";
import { paceLabels } from "./pace-fields";
import { WebhookNoticeBanner } from "./notice-banner";
import { RecoverDialog } from "./recover-dialog";
import { LastDelivery, WebhookStatus } from "./status";
import { useWebhookActions } from "./use-webhook-actions";

function Item({ term, children, className }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={cx("min-w-0", className)}>
      <dt className="text-xs font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

function BackToWebhooks({ tenantId }: { tenantId: string }) {
  return (
    <Link
      href={consoleUrl.webhooks(tenantId)}
      className="mb-4 inline-flex items-center gap-1 rounded text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ChevronLeftIcon className="size-4" />
      All webhooks
    </Link>
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

  if (query.isPending) {
    return (
      <>
        <BackToWebhooks tenantId={tenantId} />
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
        <BackToWebhooks tenantId={tenantId} />
        <Card>
          {statusOf(query.error) === 404 ? (
            <EmptyState
              icon={<AlertIcon className="size-6" />}
              title="This webhook does not exist"
              description="It may have been deleted. Pick one from the list."
              action={
                <Link href={consoleUrl.webhooks(tenantId)} className={buttonClasses("secondary")}>
                  Back to webhooks
                </Link>
              }
            />
          ) : (
            <LoadError
              title="The webhook could not be loaded"
              message={messageOf(query.error)}
              onRetry={() => query.refetch()}
              retrying={query.isFetching}
            />
          )}
        </Card>
      </>
    );
  }

  const webhook = query.data;
  const testing = actions.testing(webhook);
  return (
    <>
      <BackToWebhooks tenantId={tenantId} />
      <WebhookNoticeBanner tenantId={tenantId} webhook={webhook} canWrite={canWrite} onRecover={() => setRecovering(true)} />
      <div className="space-y-6">
        <Card aria-labelledby="webhook-title">
          <CardHeader
            title={
              <span id="webhook-title" className="wrap-anywhere">
                {webhook.url}
              </span>
            }
            description={webhook.description ?? undefined}
            actions={canWrite ? null : loading ? null : <Badge>Read-only</Badge>}
          />
          <div className="space-y-5 px-4 py-4 sm:px-6">
            {canWrite ? (
              <div className="flex flex-wrap gap-2">
                <Button
                  onClick={() => actions.sendTest(webhook)}
                  loading={testing}
                  disabled={!webhook.enabled}
                  aria-describedby={webhook.enabled ? undefined : "webhook-test-hint"}
                >
                  {testing ? null : <SendIcon className="size-4" />}
                  Send test event
                </Button>
                <Button variant="secondary" onClick={() => actions.edit(webhook)}>
                  <PencilIcon className="size-4" />
                  Edit
                </Button>
                <Button variant="secondary" onClick={() => actions.askRotate(webhook)}>
                  <KeyIcon className="size-4" />
                  Rotate secret
                </Button>
                <Button variant="secondary" onClick={() => setRecovering(true)} disabled={!webhook.enabled}>
                  <RefreshIcon className="size-4" />
                  Recover failed deliveries since…
                </Button>
                <Button variant="secondary" onClick={() => actions.askDelete(webhook)}>
                  <TrashIcon className="size-4" />
                  Delete
                </Button>
              </div>
            ) : null}
            {canWrite && !webhook.enabled ? (
              <p id="webhook-test-hint" className="-mt-3 text-xs text-slate-600">
                Enable the webhook to send a test event or recover failed deliveries.
              </p>
            ) : null}
            <dl className="grid grid-flow-row-dense gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
              <Item term="Status">
                <div className="flex items-start gap-3">
                  <Switch
                    checked={webhook.enabled}
                    onCheckedChange={(on) => actions.setEnabled(webhook, on)}
                    busy={actions.switching(webhook)}
                    disabled={!canWrite}
                    aria-label={`Enable ${webhook.url}`}
                  />
                  <WebhookStatus webhook={webhook} />
                </div>
              </Item>
              <Item term="Last delivery">
                <LastDelivery last={webhook.last_delivery} />
              </Item>
              <Item term="Created">
                <RelativeTime iso={webhook.created_at} />
              </Item>
              <Item term="Webhook ID" className="sm:col-span-2">
                <span className="inline-flex max-w-full items-start gap-1">
                  <code className="font-mono text-xs break-all text-slate-800 sm:break-normal">{webhook.id}</code>
                  <CopyButton value={webhook.id} label="Copy the webhook ID" className="-my-1.5 shrink-0" />
                </span>
              </Item>
              <Item term="Delivery" className="sm:col-span-2">
                <ul data-testid="webhook-pace" className="space-y-0.5">
                  <li>{paceLabels(webhook).rate}</li>
                  <li>{paceLabels(webhook).order}</li>
                </ul>
              </Item>
              <Item term="Signing secret">
                <code className="font-mono text-xs text-slate-800">{webhook.secret_hint ? `••••${webhook.secret_hint}` : "••••"}</code>
              </Item>
              <Item term="Events" className="sm:col-span-2 lg:col-span-3">
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
              </Item>
              <Item term="Filter" className="sm:col-span-2 lg:col-span-3">
                {webhook.filter ? (
                  <code className="font-mono text-xs break-all text-slate-800">{webhook.filter}</code>
                ) : (
                  "None: every event above"
                )}
              </Item>
            </dl>
          </div>
        </Card>

        <DeliveriesView
          tenantId={tenantId}
          webhookId={webhook.id}
          canWrite={canWrite}
          webhookEnabled={webhook.enabled}
          waits={webhook.ordering === "ordered" ? "ordered" : webhook.rate_limit_per_second ? "paced" : null}
          openDeliveryId={openDeliveryId}
        />
      </div>
      {actions.dialogs}
      {recovering ? <RecoverDialog tenantId={tenantId} webhookId={webhook.id} onClose={() => setRecovering(false)} /> : null}
    </>
  );
}
