"use client";

import { useState, type ReactNode } from "react";
import Link from "next/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useConfirmedStep, useResourceActions } from "../resource/use-resource-actions";
import { messageOf, useTRPC } from "../trpc";
import { SecretDialog } from "./secret-dialog";
import { awaitOutcome, describeOutcome } from "./test-outcome";
import type { Delivery, Webhook } from "./types";
import { WebhookDialog } from "./webhook-dialog";

/** How long after a test event the list keeps asking for its result. */
const AWAIT_TEST_MS = 30_000;

type Shown = { reason: "created" | "rotated"; url: string; secret: string } | null;

export interface WebhookActions {
  add: () => void;
  edit: (webhook: Webhook) => void;
  askDelete: (webhook: Webhook) => void;
  askRotate: (webhook: Webhook) => void;
  sendTest: (webhook: Webhook) => void;
  setEnabled: (webhook: Webhook, enabled: boolean) => void;
  /** Whether a test or an enable/disable of this webhook is on its way. */
  testing: (webhook: Webhook) => boolean;
  switching: (webhook: Webhook) => boolean;
  /** A test event was sent in the last half minute: its result is worth polling for. */
  awaitingTest: boolean;
  /** The dialogs these actions open: render them somewhere in the caller's tree. */
  dialogs: ReactNode;
}

/**
 * What a tenant admin can do to webhooks, shared by the list and the details page: the dialogs
 * (add, edit, delete, rotate, the secret shown once) and the one-click actions with their toasts.
 */
export function useWebhookActions(
  tenantId: string,
  { onSaved, onDeleted }: { onSaved?: (webhook: Webhook, created: boolean) => void; onDeleted?: () => void } = {},
): WebhookActions {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ webhook?: Webhook } | null>(null);
  const [shown, setShown] = useState<Shown>(null);
  const [awaitingTests, setAwaitingTests] = useState(0);

  const invalidate = () => queryClient.invalidateQueries(trpc.webhooks.pathFilter());
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSettled: invalidate }));
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSettled: invalidate }));
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSettled: invalidate }));
  const test = useMutation(trpc.webhooks.test.mutationOptions({ onSettled: invalidate }));
  const ids = (webhook: Webhook) => ({ tenant_id: tenantId, webhook_id: webhook.id });

  const core = useResourceActions<Webhook>({
    noun: "webhook",
    nameOf: (webhook) => webhook.url,
    toggle: (webhook, enabled) => update.mutateAsync({ ...ids(webhook), enabled }),
  });
  const { notify, named: url } = core;

  const deleting = useConfirmedStep(core, {
    title: "Delete this webhook?",
    confirmLabel: "Delete webhook",
    body: (webhook: Webhook) => (
      <p>{url(webhook)} gets no more events, and its delivery history is deleted with it. This cannot be undone.</p>
    ),
    stepUp: "if-asked",
    action: (webhook) => `delete webhook ${webhook.url}`,
    run: (webhook) => remove.mutateAsync(ids(webhook)),
    pending: remove.isPending,
    done: (webhook) => {
      notify(<>{url(webhook)} was deleted.</>);
      onDeleted?.();
    },
  });

  const rotating = useConfirmedStep(core, {
    title: "Rotate the signing secret?",
    confirmLabel: "Rotate secret",
    tone: "primary",
    body: (webhook: Webhook) => (
      <>
        <p>
          A new secret is generated for {url(webhook)} and shown to you once. The old one keeps signing deliveries alongside it for 24
          hours, so your receiver can switch over without missing any.
        </p>
        <p>You will be asked for your password first if you have not confirmed it in the last 10 minutes.</p>
      </>
    ),
    stepUp: "always",
    action: (webhook) => `rotate the secret of webhook ${webhook.url}`,
    run: (webhook) => rotate.mutateAsync(ids(webhook)),
    pending: rotate.isPending,
    done: (webhook, { secret }) => setShown({ reason: "rotated", url: webhook.url, secret }),
  });

  const seeDelivery = (webhook: Webhook, delivery: Delivery) => (
    <Link
      href={consoleUrl.delivery(tenantId, webhook.id, delivery.id)}
      className="font-medium text-indigo-700 underline hover:text-indigo-900"
    >
      See the delivery
    </Link>
  );

  const testToastId = (delivery: Delivery) => `webhook-test-${delivery.id}`;

  /** Reports what the test event came to once its first attempt is made (or cancelled). */
  async function reportOutcome(webhook: Webhook, delivery: Delivery) {
    const input = { ...ids(webhook), delivery_id: delivery.id };
    const settled = await awaitOutcome(() => queryClient.fetchQuery({ ...trpc.webhooks.delivery.queryOptions(input), staleTime: 0 }));
    if (!settled) return;
    void invalidate();
    const { tone, text } = describeOutcome(settled);
    notify(
      <span data-testid="test-outcome" data-status={settled.status}>
        Test event to {url(webhook)}: {text}. {seeDelivery(webhook, settled)}
      </span>,
      tone,
      // In the place of "on its way" (if still shown), not stacked on it: one notice per test.
      { id: testToastId(delivery) },
    );
  }

  function sendTest(webhook: Webhook) {
    test.mutate(ids(webhook), {
      onSuccess: (delivery) => {
        setAwaitingTests((n) => n + 1);
        setTimeout(() => setAwaitingTests((n) => n - 1), AWAIT_TEST_MS);
        notify(
          <>
            A test event is on its way to {url(webhook)}. {seeDelivery(webhook, delivery)}
          </>,
          "info",
          { id: testToastId(delivery) },
        );
        void reportOutcome(webhook, delivery);
      },
      onError: (error) =>
        notify(
          <>
            The test event could not be sent to {url(webhook)}: {messageOf(error)}
          </>,
          "danger",
        ),
    });
  }

  const dialogs = (
    <>
      {editing ? (
        <WebhookDialog
          tenantId={tenantId}
          webhook={editing.webhook}
          steppingUpIfAsked={core.steppingUpIfAsked}
          onClose={() => setEditing(null)}
          onSaved={(saved, secret) => {
            setEditing(null);
            onSaved?.(saved, !editing.webhook);
            if (secret) setShown({ reason: "created", url: saved.url, secret });
            else notify(<>{url(saved)} was saved.</>);
          }}
        />
      ) : null}
      {deleting.dialog}
      {rotating.dialog}
      {shown ? <SecretDialog {...shown} onClose={() => setShown(null)} /> : null}
      {core.stepUpDialog}
    </>
  );

  return {
    add: () => setEditing({}),
    edit: (webhook) => setEditing({ webhook }),
    askDelete: deleting.ask,
    askRotate: rotating.ask,
    sendTest,
    setEnabled: core.setEnabled,
    testing: (webhook) => test.isPending && test.variables?.webhook_id === webhook.id,
    awaitingTest: awaitingTests > 0,
    switching: (webhook) => update.isPending && update.variables?.webhook_id === webhook.id,
    dialogs,
  };
}
