"use client";

import { consoleUrl } from "../console/urls";
import { switchOf } from "../resource/parts";
import { ResourceRow } from "../resource/resource-row";
import { Td } from "../ui/table";
import { KeyIcon, PencilIcon, SendIcon, TrashIcon } from "../icons";
import { describeEvents } from "./event-kinds";
import { deliveryStatusLabel, LastDelivery } from "./status";
import type { Webhook } from "./types";
import type { WebhookActions } from "./use-webhook-actions";

interface WebhookRowProps {
  tenantId: string;
  webhook: Webhook;
  canWrite: boolean;
  actions: WebhookActions;
  highlight?: boolean;
}

/** One webhook in the list; its URL leads to its details and deliveries. */
export function WebhookRow({ tenantId, webhook, canWrite, actions, highlight }: WebhookRowProps) {
  const { url } = webhook;
  return (
    <ResourceRow
      attrs={{ "data-testid": "webhook-row", "data-webhook-id": webhook.id }}
      name={url}
      href={consoleUrl.webhook(tenantId, webhook.id)}
      highlight={highlight}
      cells={
        <Td className="hidden md:table-cell">
          <LastDelivery last={webhook.last_delivery} />
        </Td>
      }
      toggle={switchOf(actions, webhook, url, canWrite)}
      actions={
        canWrite
          ? [
              {
                icon: SendIcon,
                title: webhook.enabled ? "Send test event" : "Enable the webhook to send a test event",
                label: `Send a test event to ${url}`,
                onClick: () => actions.sendTest(webhook),
                loading: actions.testing(webhook),
                disabled: !webhook.enabled,
              },
              { icon: PencilIcon, title: "Edit", label: `Edit ${url}`, onClick: () => actions.edit(webhook) },
              { icon: KeyIcon, title: "Rotate secret", label: `Rotate the secret of ${url}`, onClick: () => actions.askRotate(webhook) },
              { icon: TrashIcon, title: "Delete", label: `Delete ${url}`, onClick: () => actions.askDelete(webhook) },
            ]
          : null
      }
    >
      {webhook.description ? <p className="text-xs whitespace-normal wrap-anywhere text-slate-600">{webhook.description}</p> : null}
      <p className="truncate text-xs text-slate-600" title={webhook.events.join(", ")}>
        <span className="sr-only">Events: </span>
        {describeEvents(webhook.events)}
      </p>
      {webhook.last_delivery ? (
        <p className="text-xs text-slate-600 md:hidden">
          Last delivery: {deliveryStatusLabel(webhook.last_delivery.status).toLowerCase()}
          {webhook.last_delivery.response_status ? ` (HTTP ${webhook.last_delivery.response_status})` : ""}
        </p>
      ) : null}
      {!webhook.enabled && webhook.disabled_reason ? (
        <p className="text-xs whitespace-normal text-red-700" data-testid="disabled-reason">
          Disabled: {webhook.disabled_reason}
        </p>
      ) : null}
    </ResourceRow>
  );
}
