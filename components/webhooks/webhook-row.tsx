"use client";

import Link from "next/link";
import { consoleUrl } from "../console/urls";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { Switch } from "../ui/switch";
import { Td, Tr } from "../ui/table";
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
  const testing = actions.testing(webhook);
  return (
    <Tr data-testid="webhook-row" data-webhook-id={webhook.id} className={cx(highlight && "bg-indigo-50/60")}>
      <Td className="w-full max-w-0">
        <Link
          href={consoleUrl.webhook(tenantId, webhook.id)}
          className="block font-medium whitespace-normal wrap-anywhere text-slate-900 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {webhook.url}
        </Link>
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
      </Td>
      <Td className="hidden md:table-cell">
        <LastDelivery last={webhook.last_delivery} />
      </Td>
      <Td>
        <Switch
          checked={webhook.enabled}
          onCheckedChange={(on) => actions.setEnabled(webhook, on)}
          busy={actions.switching(webhook)}
          disabled={!canWrite}
          aria-label={`Enable ${webhook.url}`}
        />
      </Td>
      {canWrite ? (
        <Td className="hidden sm:table-cell">
          <div className="flex justify-end gap-0.5">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => actions.sendTest(webhook)}
              loading={testing}
              disabled={!webhook.enabled}
              title={webhook.enabled ? "Send test event" : "Enable the webhook to send a test event"}
              aria-label={`Send a test event to ${webhook.url}`}
            >
              {testing ? null : <SendIcon className="size-4" />}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => actions.edit(webhook)} title="Edit" aria-label={`Edit ${webhook.url}`}>
              <PencilIcon className="size-4" />
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => actions.askRotate(webhook)}
              title="Rotate secret"
              aria-label={`Rotate the secret of ${webhook.url}`}
            >
              <KeyIcon className="size-4" />
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => actions.askDelete(webhook)}
              title="Delete"
              aria-label={`Delete ${webhook.url}`}
            >
              <TrashIcon className="size-4" />
            </Button>
          </div>
        </Td>
      ) : null}
    </Tr>
  );
}
