"use client";

import { useState } from "react";
import { cx } from "../ui/cx";
import { Input } from "../ui/input";
import { EVENT_GROUPS, OFFERED_KINDS, parseOwnKinds } from "./event-kinds";
import { KindAbout } from "./kind-about";

export interface EventsChoice {
  all: boolean;
  /** The kinds picked when not `all`. */
  kinds: string[];
}

interface EventsPickerProps {
  id: string;
  value: EventsChoice;
  onChange: (value: EventsChoice) => void;
  error?: string;
}

function Radio({
  id,
  name,
  checked,
  onChange,
  label,
  description,
}: {
  id: string;
  name: string;
  checked: boolean;
  onChange: () => void;
  label: string;
  description: string;
}) {
  return (
    <div className="flex gap-3">
      <input
        id={id}
        type="radio"
        name={name}
        checked={checked}
        onChange={onChange}
        aria-describedby={`${id}-description`}
        className="mt-0.5 size-4 shrink-0 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      />
      <div className="text-sm">
        <label htmlFor={id} className="font-medium text-slate-700">
          {label}
        </label>
        <p id={`${id}-description`} className="text-slate-600">
          {description}
        </p>
      </div>
    </div>
  );
}

/**
 * Which events a webhook receives: all of them (including kinds added later), or the kinds ticked
 * below, grouped by what they are about, and the kinds the tenant's application appends, typed
 * (`invoice.paid`, `invoice.*`). `id` is focused when the choice has an error.
 */
export function EventsPicker({ id, value, onChange, error }: EventsPickerProps) {
  const errorId = `${id}-error`;
  const [ownText, setOwnText] = useState(() => value.kinds.filter((k) => !OFFERED_KINDS.has(k)).join(", "));
  const toggle = (kind: string, on: boolean) =>
    onChange({ all: false, kinds: on ? [...value.kinds, kind] : value.kinds.filter((k) => k !== kind) });
  const typeOwn = (text: string) => {
    setOwnText(text);
    onChange({ all: false, kinds: [...value.kinds.filter((k) => OFFERED_KINDS.has(k)), ...parseOwnKinds(text)] });
  };
  return (
    <fieldset aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-slate-700">Events</legend>
      <div className="mt-2 space-y-3">
        <Radio
          id={id}
          name={`${id}-mode`}
          checked={value.all}
          onChange={() => onChange({ ...value, all: true })}
          label="All events"
          description="Everything that happens in this tenant, including kinds added later."
        />
        <Radio
          id={`${id}-some`}
          name={`${id}-mode`}
          checked={!value.all}
          onChange={() => onChange({ ...value, all: false })}
          label="Selected events"
          description="Only the kinds you tick below."
        />
      </div>
      {value.all ? null : (
        <div
          className={cx(
            "mt-3 grid gap-x-6 gap-y-4 rounded-md p-3 ring-1 ring-inset sm:grid-cols-2",
            error ? "ring-red-300" : "ring-slate-200",
          )}
        >
          {EVENT_GROUPS.map((group) => (
            <fieldset key={group.prefix} className="min-w-0">
              <legend className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{group.label}</legend>
              <ul className="mt-1.5 space-y-1.5">
                {group.kinds.map((kind) => {
                  const boxId = `${id}-${kind.replace(/\W/g, "-")}`;
                  return (
                    <li key={kind} className="flex items-start gap-2">
                      <input
                        id={boxId}
                        type="checkbox"
                        value={kind}
                        checked={value.kinds.includes(kind)}
                        onChange={(event) => toggle(kind, event.target.checked)}
                        aria-describedby={`${boxId}-about`}
                        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                      />
                      <div className="min-w-0">
                        <label htmlFor={boxId} className="font-mono text-xs text-slate-800">
                          {kind}
                        </label>
                        <KindAbout id={`${boxId}-about`} kind={kind} />
                      </div>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          ))}
          <div className="sm:col-span-2">
            <label htmlFor={`${id}-own`} className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
              Your application&apos;s events
            </label>
            <Input
              id={`${id}-own`}
              value={ownText}
              onChange={(event) => typeOwn(event.target.value)}
              placeholder="invoice.paid, app.*"
              aria-describedby={`${id}-own-hint`}
              autoComplete="off"
              spellCheck={false}
              className="mt-1.5 font-mono"
            />
            <p id={`${id}-own-hint`} className="mt-1 text-xs text-slate-600">
              Kinds your application appends to the audit log, separated by commas: exact (invoice.paid) or a prefix (invoice.*).
            </p>
          </div>
        </div>
      )}
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
