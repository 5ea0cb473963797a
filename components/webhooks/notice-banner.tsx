"use client";

import { useQuery } from "@tanstack/react-query";
import type { Webhook } from "@/server/webhooks/schemas";
import { useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { RelativeTime } from "../ui/relative-time";

/**
 * What is wrong with a webhook and what to do (the operational notices, server/webhooks/notices.ts):
 * turned off by the service (its reason), or failing (since when, how many deliveries ran out of
 * retries). Nothing for a healthy webhook, or one an admin turned off by hand.
 */
export function WebhookNoticeBanner({
  tenantId,
  webhook,
  canWrite,
  onRecover,
}: {
  tenantId: string;
  webhook: Pick<Webhook, "id" | "enabled" | "disabled_reason" | "failing_since">;
  canWrite: boolean;
  onRecover: () => void;
}) {
  const trpc = useTRPC();
  const autoDisabled = !webhook.enabled && webhook.disabled_reason !== null;
  const failing = webhook.enabled && webhook.failing_since !== null;
  const exhausted = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ tenant_id: tenantId, webhook_id: webhook.id, page_size: 1, status: "exhausted" }),
    enabled: failing || autoDisabled,
  });
  if (!failing && !autoDisabled) return null;
  const count = exhausted.data?.count;
  const exhaustedLine = !count
    ? null
    : `${count.toLocaleString("en")} ${count === 1 ? "delivery has" : "deliveries have"} run out of retries.`;

  if (autoDisabled) {
    return (
      <Alert tone="danger" title="The service turned this webhook off" className="mb-6">
        <p>{webhook.disabled_reason}</p>
        {exhaustedLine ? <p className="mt-1">{exhaustedLine}</p> : null}
        <p className="mt-2">
          Fix the endpoint, then turn the webhook back on with the Status switch and recover what failed while it was off (Recover failed
          deliveries since…).
        </p>
      </Alert>
    );
  }
  return (
    <Alert
      tone="warning"
      title={
        <>
          Failing since <RelativeTime iso={webhook.failing_since!} />
        </>
      }
      className="mb-6"
      action={
        canWrite ? (
          <Button variant="secondary" onClick={onRecover}>
            Recover failed deliveries…
          </Button>
        ) : null
      }
    >
      <p>Every delivery since then has failed.{exhaustedLine ? ` ${exhaustedLine}` : ""}</p>
      <p className="mt-1">
        Fix the endpoint (see the attempts below for its answers), then recover the failed deliveries. After 5 days of failures the webhook
        is turned off.
      </p>
    </Alert>
  );
}
