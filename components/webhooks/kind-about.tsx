"use client";

import { EVENT_CATALOG, exampleDataOf } from "@/server/events/catalog";
import type { EventType } from "@/server/events/types";

/** A kind's description from the event catalog, and its example payload `data` on demand. */
export function KindAbout({ id, kind }: { id: string; kind: string }) {
  if (!(kind in EVENT_CATALOG)) return null;
  const name = kind as EventType;
  return (
    <div className="text-xs text-slate-600">
      <p id={id}>{EVENT_CATALOG[name].description}</p>
      <details className="mt-0.5">
        <summary className="cursor-pointer text-indigo-700 hover:underline">Example</summary>
        <pre
          tabIndex={0}
          aria-label={`Example of ${kind}`}
          className="mt-1 max-h-48 overflow-auto rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-800 ring-1 ring-slate-200"
        >
          {JSON.stringify(exampleDataOf(name), null, 2)}
        </pre>
      </details>
    </div>
  );
}
