"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MAX_DESCRIPTION_LENGTH, MIN_SECRET_LENGTH } from "@/server/webhooks/schemas";
import { useFormErrors } from "../form-errors";
import { useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { subscribesToAll } from "./event-kinds";
import { EventsPicker, type EventsChoice } from "./events-picker";
import { PaceFields, paceInput, paceValuesOf } from "./pace-fields";
import { FilterField } from "./filter-field";
import type { Webhook } from "./types";
import { checkForm, eventsOf, FIELD_IDS, serverFieldErrors, urlRule, useUrlPolicy } from "./webhook-form";

interface WebhookDialogProps {
  tenantId: string;
  /** The webhook to edit; none to create one. */
  webhook?: Webhook;
  /** Runs a save, asking for a step-up (then retrying) if the server wants one: a new URL needs it. */
  steppingUpIfAsked: (action: string, call: () => Promise<unknown>) => Promise<boolean>;
  onClose: () => void;
  /** `secret` is the signing secret of a webhook just created, to be shown once. */
  onSaved: (webhook: Webhook, secret?: string) => void;
}

function SecretChoice({
  own,
  onOwn,
  secret,
  onSecret,
  error,
}: {
  own: boolean;
  onOwn: (own: boolean) => void;
  secret: string;
  onSecret: (secret: string) => void;
  error?: string;
}) {
  const radio =
    "mt-0.5 size-4 shrink-0 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Signing secret</legend>
      <div className="mt-2 space-y-3 text-sm">
        <div className="flex gap-3">
          <input
            id="webhook-secret-generate"
            type="radio"
            name="secret-mode"
            checked={!own}
            onChange={() => onOwn(false)}
            className={radio}
          />
          <label htmlFor="webhook-secret-generate" className="font-medium text-slate-700">
            Generate one for me <span className="font-normal text-slate-600">(recommended)</span>
          </label>
        </div>
        <div className="flex gap-3">
          <input id="webhook-secret-own" type="radio" name="secret-mode" checked={own} onChange={() => onOwn(true)} className={radio} />
          <label htmlFor="webhook-secret-own" className="font-medium text-slate-700">
            Use my own
          </label>
        </div>
        {own ? (
          <Field
            id="webhook-secret"
            label="Secret"
            hint={`At least ${MIN_SECRET_LENGTH} characters. Deliveries are signed with it.`}
            error={error}
          >
            {(control) => (
              <Input
                {...control}
                name="secret"
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                value={secret}
                onChange={(event) => onSecret(event.target.value)}
              />
            )}
          </Field>
        ) : null}
      </div>
    </fieldset>
  );
}

/** Creates a webhook (URL, description, events, secret) or edits one (the secret is rotated elsewhere). */
export function WebhookDialog({ tenantId, webhook, steppingUpIfAsked, onClose, onSaved }: WebhookDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(webhook?.url ?? "");
  const [description, setDescription] = useState(webhook?.description ?? "");
  const [events, setEvents] = useState<EventsChoice>(
    webhook
      ? { all: subscribesToAll(webhook.events), kinds: subscribesToAll(webhook.events) ? [] : webhook.events }
      : { all: true, kinds: [] },
  );
  const [filter, setFilter] = useState(webhook?.filter ?? "");
  const [ownSecret, setOwnSecret] = useState(false);
  const [secret, setSecret] = useState("");
  const [pace, setPace] = useState(() => paceValuesOf(webhook));
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(FIELD_IDS);
  const urlPolicy = useUrlPolicy(tenantId);

  const invalidate = () => queryClient.invalidateQueries(trpc.webhooks.pathFilter());
  const create = useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: invalidate }));
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: invalidate }));
  const pending = create.isPending || update.isPending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const values = {
      url: url.trim(),
      description: description.trim(),
      events,
      secret: !webhook && ownSecret ? secret : null,
      filter: filter.trim(),
    };
    const paced = paceInput(pace);
    if (show({ ...checkForm(values), ...("error" in paced ? { rate_limit_per_second: paced.error } : {}) }) || "error" in paced) return;

    const fields = {
      url: values.url,
      events: eventsOf(events),
      description: values.description || undefined,
      filter: values.filter || null,
      ...paced,
    };
    const onError = (error: unknown) => fail(error, serverFieldErrors(error, fields.events));
    if (webhook) {
      const input = { tenant_id: tenantId, webhook_id: webhook.id, ...fields, description: values.description || null };
      let saved: Webhook | undefined;
      steppingUpIfAsked(`save changes to webhook ${webhook.url}`, async () => {
        saved = await update.mutateAsync(input);
      }).then((done) => {
        if (done && saved) onSaved(saved);
        else setFormError("Not saved: a new URL needs you to confirm it's you.");
      }, onError);
    } else {
      create.mutate(
        { tenant_id: tenantId, ...fields, ...(values.secret !== null ? { secret: values.secret } : {}) },
        { onSuccess: ({ secret: shown, ...saved }) => onSaved(saved, shown), onError },
      );
    }
  }

  return (
    <Dialog
      title={webhook ? "Edit webhook" : "Add a webhook"}
      description={
        webhook ? (
          <span className="break-all">{webhook.url}</span>
        ) : (
          "We POST a signed JSON message to this URL whenever a chosen event happens."
        )
      }
      size="md"
      onClose={onClose}
      onSubmit={submit}
      busy={pending}
      footer={<FormActions onCancel={onClose} pending={pending} submitLabel={webhook ? "Save changes" : "Add webhook"} />}
    >
      <div className="space-y-5">
        <Field
          id="webhook-url"
          label="Endpoint URL"
          hint={
            webhook
              ? `${urlRule(urlPolicy)} Every future event goes here, so changing it asks you to confirm it's you.`
              : `${urlRule(urlPolicy)} It should answer 2xx within 5 seconds.`
          }
          error={errors.url}
        >
          {(control) => (
            <Input
              {...control}
              type="url"
              name="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://example.com/webhooks/control-plane"
              value={url}
              onChange={(event) => {
                setUrl(event.target.value);
                clear("url");
              }}
            />
          )}
        </Field>

        <Field
          id="webhook-description"
          label="Description"
          hint={`Optional, up to ${MAX_DESCRIPTION_LENGTH} characters.`}
          error={errors.description}
        >
          {(control) => (
            <Input
              {...control}
              name="description"
              autoComplete="off"
              value={description}
              onChange={(event) => {
                setDescription(event.target.value);
                clear("description");
              }}
            />
          )}
        </Field>

        <EventsPicker
          id="webhook-events"
          value={events}
          onChange={(next) => {
            setEvents(next);
            clear("events");
          }}
          error={errors.events}
        />

        <FilterField
          tenantId={tenantId}
          value={filter}
          onChange={(next) => {
            setFilter(next);
            clear("filter");
          }}
          events={events}
          error={errors.filter}
        />

        <PaceFields
          value={pace}
          onChange={(next) => {
            setPace(next);
            clear("rate_limit_per_second");
          }}
          error={errors.rate_limit_per_second}
        />

        {webhook ? null : (
          <SecretChoice
            own={ownSecret}
            onOwn={(own) => {
              setOwnSecret(own);
              clear("secret");
            }}
            secret={secret}
            onSecret={(value) => {
              setSecret(value);
              clear("secret");
            }}
            error={errors.secret}
          />
        )}

        {formError ? <Alert tone="danger">{formError}</Alert> : null}
      </div>
    </Dialog>
  );
}
