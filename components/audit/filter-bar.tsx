"use client";

import { useState, type FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fieldErrorsOf, messageOf, useTRPC } from "../trpc";
import { useHydrated } from "../use-hydrated";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { isoOfUtcInput, NO_FILTERS, RANGE_OPTIONS, typeSuggestions, utcInputValue, type AuditFilters, type Range } from "./filters";

/** Messages under the filter fields, by the API parameter the server named. */
export type FilterErrors = Partial<Record<"event_type" | "actor_id" | "start_date" | "end_date", string>>;

interface FilterBarProps {
  tenantId: string;
  /** The filters in force (from the URL); the bar edits a copy until it is applied. */
  filters: AuditFilters;
  errors: FilterErrors;
  onApply: (filters: AuditFilters) => void;
}

/** How many members the actor field suggests; beyond that, paste a user id. */
const MEMBER_SUGGESTIONS = 100;

/**
 * Event type (with the tenant's own kinds as suggestions), actor, and a date range with presets.
 * Render it with `key` set to the applied filters so that navigating back resets the draft.
 */
export function FilterBar({ tenantId, filters, errors, onApply }: FilterBarProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<AuditFilters>(filters);
  // The actor field's own answer: an email that names no user (the server's 400s come in `errors`).
  const [actorError, setActorError] = useState<string | null>(null);
  const [resolving, setResolving] = useState(false);
  // The bar arrives with the server's HTML: nothing applies before React runs it (a native submit would drop the filters).
  const hydrated = useHydrated();
  const kinds = useQuery(trpc.audit.eventTypes.queryOptions({ tenant_id: tenantId }, { staleTime: 60_000 }));
  const members = useQuery(trpc.members.list.queryOptions({ tenant_id: tenantId, page_size: MEMBER_SUGGESTIONS }, { staleTime: 60_000 }));

  const set = (change: Partial<AuditFilters>) => setDraft((d) => ({ ...d, ...change }));
  const memberList = members.data?.results ?? [];

  /** The actor as the API filters by it: an email stands for that user's id (a member, or anyone who acted in the tenant). */
  async function actorIdOf(actor: string): Promise<string | null> {
    if (!actor.includes("@")) return actor;
    try {
      const found = await queryClient.fetchQuery(trpc.audit.actorByEmail.queryOptions({ tenant_id: tenantId, email: actor }));
      if (found.user_id === null) setActorError("No user with this email.");
      return found.user_id;
    } catch (error) {
      const [invalid] = fieldErrorsOf(error);
      setActorError(invalid ? `Actor ${invalid.message}.` : messageOf(error));
      return null;
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setActorError(null);
    setResolving(true);
    const actor = await actorIdOf(draft.actor.trim()).finally(() => setResolving(false));
    if (actor !== null) onApply({ ...draft, actor, type: draft.type.trim() });
  }

  const suggestions = typeSuggestions(draft.type, kinds.data?.results ?? []);
  const custom = draft.range === "custom";

  return (
    <form
      role="search"
      aria-label="Filter audit events"
      onSubmit={submit}
      noValidate
      className="grid gap-4 border-b border-slate-200 px-4 py-4 sm:grid-cols-2 sm:px-6 lg:grid-cols-12"
    >
      <Field
        id="audit-type"
        label="Event type"
        hint="Exact kinds or prefix.*, separated by commas"
        error={errors.event_type}
        className="lg:col-span-4"
      >
        {(control) => (
          <>
            <Input
              {...control}
              list="audit-type-suggestions"
              autoComplete="off"
              spellCheck={false}
              placeholder="user.*, tenant.created"
              value={draft.type}
              onChange={(e) => set({ type: e.target.value })}
            />
            <datalist id="audit-type-suggestions">
              {suggestions.map((s) => (
                <option key={s.value} value={s.value} label={s.label} />
              ))}
            </datalist>
          </>
        )}
      </Field>

      <Field
        id="audit-actor"
        label="Actor"
        hint="Anyone's email, or an actor id"
        error={actorError ?? errors.actor_id}
        className="lg:col-span-3"
      >
        {(control) => (
          <>
            <Input
              {...control}
              list="audit-actor-suggestions"
              autoComplete="off"
              spellCheck={false}
              placeholder="Anyone"
              value={draft.actor}
              onChange={(e) => {
                setActorError(null);
                set({ actor: e.target.value });
              }}
            />
            <datalist id="audit-actor-suggestions">
              {memberList.map((m) => (
                <option key={m.user_id} value={m.user_id} label={m.email} />
              ))}
            </datalist>
          </>
        )}
      </Field>

      <Field
        id="audit-range"
        label="Date range"
        error={custom ? undefined : (errors.start_date ?? errors.end_date)}
        className="lg:col-span-3"
      >
        {(control) => (
          <Select {...control} value={draft.range} onChange={(e) => set({ range: e.target.value as Range })}>
            {RANGE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        )}
      </Field>

      {/* Level with the fields (below their labels), however tall an error under them grows. */}
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-2 lg:mt-6.5 lg:items-start lg:justify-end">
        <Button type="submit" disabled={!hydrated} loading={resolving}>
          Apply
        </Button>
        <Button variant="ghost" disabled={!hydrated} onClick={() => onApply(NO_FILTERS)}>
          Clear
        </Button>
      </div>

      {custom ? (
        <fieldset className="grid gap-4 sm:col-span-2 sm:grid-cols-2 lg:col-span-12 lg:grid-cols-12">
          <legend className="sr-only">Custom date range</legend>
          <Field id="audit-from" label="From (UTC)" hint="Included" error={errors.start_date} className="lg:col-span-3">
            {(control) => (
              <Input
                {...control}
                type="datetime-local"
                value={utcInputValue(draft.from)}
                onChange={(e) => set({ from: isoOfUtcInput(e.target.value) })}
              />
            )}
          </Field>
          <Field id="audit-to" label="To (UTC)" hint="Not included" error={errors.end_date} className="lg:col-span-3">
            {(control) => (
              <Input
                {...control}
                type="datetime-local"
                value={utcInputValue(draft.to)}
                onChange={(e) => set({ to: isoOfUtcInput(e.target.value) })}
              />
            )}
          </Field>
        </fieldset>
      ) : null}
    </form>
  );
}
