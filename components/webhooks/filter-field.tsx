"use client";

import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { MAX_FILTER_LENGTH } from "@/server/webhooks/schemas";
import { fieldErrorsOf, useTRPC } from "../trpc";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Select } from "../ui/select";
import { ALL_EVENTS, OFFERED_KINDS } from "./event-kinds";
import type { EventsChoice } from "./events-picker";

const TEXTAREA =
  "block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none aria-invalid:ring-red-500";

/** The kinds an example can be of: the subscribed ones, or every kind that fires in a tenant. */
function exampleKinds(events: EventsChoice): string[] {
  return events.all || events.kinds.length === 0 ? [...OFFERED_KINDS] : events.kinds.filter((kind) => kind !== ALL_EVENTS);
}

interface FilterFieldProps {
  tenantId: string;
  value: string;
  onChange: (value: string) => void;
  events: EventsChoice;
  error?: string;
}

/**
 * The content filter (a CEL expression), with "Test against example": the server checks it as on
 * save and evaluates it against an example payload of the chosen kind (`webhooks.filterTest`).
 */
export function FilterField({ tenantId, value, onChange, events, error }: FilterFieldProps) {
  const trpc = useTRPC();
  const kinds = exampleKinds(events);
  const [kind, setKind] = useState(kinds[0] ?? "user.created");
  const chosen = kinds.includes(kind) ? kind : (kinds[0] ?? "user.created");
  const test = useMutation(trpc.webhooks.filterTest.mutationOptions());
  const problem = test.error ? (fieldErrorsOf(test.error).find((e) => e.path === "filter")?.message ?? test.error.message) : null;

  return (
    <div className="space-y-2">
      <Field
        id="webhook-filter"
        label="Filter (optional)"
        hint={
          <>
            A CEL expression over the payload; only events it is true for are delivered. Variables: <code>event</code> (the whole payload:{" "}
            <code>event.type</code>), <code>data</code>, <code>id</code>, <code>tenant_id</code>, <code>created_at</code>. E.g.{" "}
            <code>has(data.details.role) &amp;&amp; data.details.role == &quot;admin&quot;</code>. Empty: every event.
          </>
        }
        error={error}
      >
        {(control) => (
          <textarea
            {...control}
            name="filter"
            rows={2}
            maxLength={MAX_FILTER_LENGTH}
            spellCheck={false}
            className={TEXTAREA}
            placeholder='event.type == "user.created"'
            value={value}
            onChange={(event) => {
              onChange(event.target.value);
              test.reset();
            }}
          />
        )}
      </Field>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="webhook-filter-kind" className="sr-only">
          Example event
        </label>
        <Select id="webhook-filter-kind" className="w-auto max-w-full" value={chosen} onChange={(event) => setKind(event.target.value)}>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </Select>
        <Button
          variant="secondary"
          size="sm"
          loading={test.isPending}
          disabled={!value.trim()}
          onClick={() => test.mutate({ tenant_id: tenantId, filter: value, event_type: chosen })}
        >
          Test against example
        </Button>
      </div>
      <div aria-live="polite" className="text-sm">
        {problem ? <p className="text-red-700">Filter {problem}</p> : null}
        {test.data ? (
          <div className="space-y-1">
            <p className={test.data.matches ? "text-emerald-700" : "text-slate-700"}>
              {test.data.matches ? "Matches: this example would be delivered." : "No match: this example would not be delivered."}
              {test.data.error ? ` (${test.data.error})` : null}
            </p>
            <details>
              <summary className="cursor-pointer text-xs text-slate-600">Example payload</summary>
              <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-50 p-2 text-xs">
                {JSON.stringify(JSON.parse(test.data.payload), null, 2)}
              </pre>
            </details>
          </div>
        ) : null}
      </div>
    </div>
  );
}
