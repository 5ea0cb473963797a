"use client";

import { cx } from "../ui/cx";
import { EVENT_GROUPS } from "./event-kinds";

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
 * below, grouped by what they are about. `id` is focused when the choice has an error.
 */
export function EventsPicker({ id, value, onChange, error }: EventsPickerProps) {
  const errorId = `${id}-error`;
  const toggle = (kind: string, on: boolean) =>
    onChange({ all: false, kinds: on ? [...value.kinds, kind] : value.kinds.filter((k) => k !== kind) });
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
            <fieldset key={group.prefix}>
              <legend className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{group.label}</legend>
              <ul className="mt-1.5 space-y-1.5">
                {group.kinds.map((kind) => {
                  const boxId = `${id}-${kind.replace(/\W/g, "-")}`;
                  return (
                    <li key={kind} className="flex items-center gap-2">
                      <input
                        id={boxId}
                        type="checkbox"
                        value={kind}
                        checked={value.kinds.includes(kind)}
                        onChange={(event) => toggle(kind, event.target.checked)}
                        className="size-4 shrink-0 rounded border-slate-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                      />
                      <label htmlFor={boxId} className="font-mono text-xs text-slate-800">
                        {kind}
                      </label>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          ))}
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
