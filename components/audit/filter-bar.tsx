"use client";

import { useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useHydrated } from "../use-hydrated";
import { ChevronDownIcon } from "../icons";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { NO_FILTERS, RANGE_OPTIONS, typeSuggestions, type AuditFilters, type Range } from "./filters";
import { UtcRangeFields } from "./utc-range-fields";

/** Messages under the filter fields, by the API parameter the server named. */
export type FilterErrors = Partial<Record<"event_type" | "actor_id" | "actor_email" | "start_date" | "end_date", string>>;

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
 * Render it with `key` set to the applied filters so that navigating back resets the draft. On
 * narrow screens the fields fold behind a "Filters" button (open while a field has an error).
 */
export function FilterBar({ tenantId, filters, errors, onApply }: FilterBarProps) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<AuditFilters>(filters);
  const [open, setOpen] = useState(false);
  const shown = open || Object.keys(errors).length > 0;
  const active = [filters.type.trim(), filters.actor.trim(), filters.range].filter(Boolean).length;
  // The bar arrives with the server's HTML: nothing applies before React runs it (a native submit would drop the filters).
  const hydrated = useHydrated();
  const kinds = useQuery(trpc.audit.eventTypes.queryOptions({ tenant_id: tenantId }, { staleTime: 60_000 }));
  const members = useQuery(trpc.members.list.queryOptions({ tenant_id: tenantId, page_size: MEMBER_SUGGESTIONS }, { staleTime: 60_000 }));

  const set = (change: Partial<AuditFilters>) => setDraft((d) => ({ ...d, ...change }));
  const memberList = members.data?.results ?? [];

  // An email (anything with an `@`) filters by the email the log holds for the actor, whoever
  // they are (filters.ts, apiFiltersOf); anything else by the actor's id.
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onApply({ ...draft, actor: draft.actor.trim(), type: draft.type.trim() });
  }

  const suggestions = typeSuggestions(draft.type, kinds.data?.results ?? []);
  const custom = draft.range === "custom";

  return (
    <>
      <div className="border-b border-slate-200 px-4 py-2 sm:hidden">
        <Button
          variant="ghost"
          size="sm"
          className="-ml-2.5"
          aria-expanded={shown}
          aria-controls="audit-filters"
          onClick={() => setOpen(!shown)}
        >
          Filters{active ? ` (${active})` : ""}
          <ChevronDownIcon className={cx("size-4 transition-transform", shown && "rotate-180")} />
        </Button>
      </div>
      <form
        id="audit-filters"
        role="search"
        aria-label="Filter audit events"
        onSubmit={submit}
        noValidate
        className={cx(
          "gap-4 border-b border-slate-200 px-4 py-4 sm:grid sm:grid-cols-2 sm:px-6 lg:grid-cols-12",
          shown ? "grid" : "hidden",
        )}
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
          hint="An email (any case), or an actor id"
          error={errors.actor_id ?? errors.actor_email}
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
                onChange={(e) => set({ actor: e.target.value })}
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
          <Button type="submit" disabled={!hydrated}>
            Apply
          </Button>
          <Button variant="ghost" disabled={!hydrated} onClick={() => onApply(NO_FILTERS)}>
            Clear
          </Button>
        </div>

        {custom ? (
          <fieldset className="grid gap-4 sm:col-span-2 sm:grid-cols-2 lg:col-span-12 lg:grid-cols-12">
            <legend className="sr-only">Custom date range</legend>
            <UtcRangeFields
              idPrefix="audit"
              from={draft.from}
              to={draft.to}
              errors={{ from: errors.start_date, to: errors.end_date }}
              onChange={set}
            />
          </fieldset>
        ) : null}
      </form>
    </>
  );
}
