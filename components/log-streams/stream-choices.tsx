"use client";

import { cx } from "../ui/cx";
import { Input } from "../ui/input";
import type { StartMode, StreamFormValues } from "./stream-form";
import { LOG_STREAM_TYPES, TYPE_INFO } from "./stream-types";
import type { LogStreamType } from "./types";

const RADIO =
  "mt-0.5 size-4 shrink-0 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

/** Which receiver a new stream sends to: one card per type, its line below its name. */
export function TypePicker({ value, onChange }: { value: LogStreamType; onChange: (type: LogStreamType) => void }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Destination</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {LOG_STREAM_TYPES.map((type) => {
          const id = `stream-type-${type}`;
          return (
            <div
              key={type}
              className={cx(
                "flex gap-3 rounded-md p-3 ring-1 ring-inset",
                value === type ? "bg-indigo-50/60 ring-indigo-300" : "ring-slate-200",
              )}
            >
              <input
                id={id}
                type="radio"
                name="stream-type"
                value={type}
                checked={value === type}
                onChange={() => onChange(type)}
                aria-describedby={`${id}-about`}
                className={RADIO}
              />
              <div className="min-w-0 text-sm">
                <label htmlFor={id} className="font-medium text-slate-800">
                  {TYPE_INFO[type].label}
                </label>
                <p id={`${id}-about`} className="text-xs text-slate-600">
                  {TYPE_INFO[type].about}
                </p>
              </div>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

const STARTS: Array<{ mode: StartMode; label: string; about: string }> = [
  { mode: "now", label: "From now on", about: "Only events recorded after the stream is added." },
  { mode: "oldest", label: "The whole log", about: "Every event the tenant's log holds, oldest first, then new ones as they come." },
  { mode: "date", label: "Since a date", about: "Events recorded since the date below, then new ones." },
];

/** Where a new stream starts in the tenant's log. */
export function StartFromField({
  value,
  onChange,
  error,
}: {
  value: StreamFormValues["start"];
  onChange: (value: StreamFormValues["start"]) => void;
  error?: string;
}) {
  const errorId = "stream-start-error";
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-700">Start from</legend>
      <div className="mt-2 space-y-3">
        {STARTS.map((start) => {
          const id = `stream-start-${start.mode}`;
          return (
            <div key={start.mode} className="flex gap-3">
              <input
                id={id}
                type="radio"
                name="stream-start"
                checked={value.mode === start.mode}
                onChange={() => onChange({ ...value, mode: start.mode })}
                aria-describedby={`${id}-about`}
                className={RADIO}
              />
              <div className="text-sm">
                <label htmlFor={id} className="font-medium text-slate-700">
                  {start.label}
                </label>
                <p id={`${id}-about`} className="text-slate-600">
                  {start.about}
                </p>
              </div>
            </div>
          );
        })}
        {value.mode === "date" ? (
          <div className="pl-7">
            <label htmlFor="stream-start-date" className="mb-1.5 block text-xs font-medium text-slate-700">
              Date and time (your local time)
            </label>
            <Input
              id="stream-start-date"
              type="datetime-local"
              className="w-auto"
              value={value.date}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => onChange({ ...value, date: event.target.value })}
            />
          </div>
        ) : null}
      </div>
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
