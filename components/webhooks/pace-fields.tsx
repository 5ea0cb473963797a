"use client";

import { MAX_RATE_LIMIT_PER_SECOND, type WebhookOrdering } from "@/server/webhooks/schemas";
import { Checkbox } from "../ui/checkbox";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import type { Webhook } from "./types";

/** The form's pace and order: the rate as typed (empty: no limit), ordered or not. */
export interface PaceValues {
  rate: string;
  ordered: boolean;
}

export function paceValuesOf(webhook?: Pick<Webhook, "rate_limit_per_second" | "ordering">): PaceValues {
  return { rate: webhook?.rate_limit_per_second?.toString() ?? "", ordered: webhook?.ordering === "ordered" };
}

/** What the API takes, or a problem with the rate as typed. */
export function paceInput(values: PaceValues): { rate_limit_per_second: number | null; ordering: WebhookOrdering } | { error: string } {
  const rate = values.rate.trim();
  const n = Number(rate);
  if (rate && (!/^\d+$/.test(rate) || n < 1 || n > MAX_RATE_LIMIT_PER_SECOND))
    return { error: `Rate limit must be a whole number from 1 to ${MAX_RATE_LIMIT_PER_SECOND}, or empty for no limit` };
  return { rate_limit_per_second: rate ? n : null, ordering: values.ordered ? "ordered" : "unordered" };
}

/** How the webhook's page says them. */
export function paceLabels(webhook: Pick<Webhook, "rate_limit_per_second" | "ordering">): { rate: string; order: string } {
  return {
    rate: webhook.rate_limit_per_second ? `Paced: at most ${webhook.rate_limit_per_second} per second` : "No rate limit",
    order:
      webhook.ordering === "ordered" ? "Ordered: a failing delivery holds the ones behind it" : "Unordered: deliveries go out side by side",
  };
}

export function PaceFields({ value, onChange, error }: { value: PaceValues; onChange: (value: PaceValues) => void; error?: string }) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-medium text-slate-700">Delivery</legend>
      <Field
        id="webhook-rate"
        label="Rate limit (deliveries per second)"
        hint={`Optional, 1 to ${MAX_RATE_LIMIT_PER_SECOND}. Deliveries past it wait their turn; none fails for it.`}
        error={error}
      >
        {(control) => (
          <Input
            {...control}
            name="rate_limit_per_second"
            inputMode="numeric"
            autoComplete="off"
            placeholder="No limit"
            value={value.rate}
            onChange={(event) => onChange({ ...value, rate: event.target.value })}
          />
        )}
      </Field>
      <Checkbox
        id="webhook-ordered"
        label="Deliver in order"
        description="One at a time, in event order. A failing delivery holds the ones behind it until it succeeds or gives up."
        checked={value.ordered}
        onChange={(event) => onChange({ ...value, ordered: event.target.checked })}
      />
    </fieldset>
  );
}
