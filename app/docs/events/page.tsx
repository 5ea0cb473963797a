import type { Metadata } from "next";
import { DocsHeader } from "@/components/docs-header";
import { EVENT_CATALOG, exampleDataOf } from "@/server/events/catalog";
import { EVENT_TYPES } from "@/server/events/types";

export const metadata: Metadata = {
  title: "Event types",
  description: "Every kind of event the Control Plane delivers to webhooks and serves from the Events API, with an example of each.",
};

const GROUPS = [...new Set(EVENT_TYPES.map((kind) => EVENT_CATALOG[kind].group))];

/** The event catalog for people: the same entries GET /api/v1/event-types serves with their JSON Schemas. */
export default function EventTypesPage() {
  return (
    <div className="min-h-screen bg-white">
      <DocsHeader current="/docs/events" />

      <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Event types</h1>
        <p className="mt-3 max-w-2xl text-base text-slate-600">
          What a webhook receives, and what <code className="font-mono text-[0.85em]">GET /api/v1/tenants/&#123;id&#125;/events</code>{" "}
          serves: <code className="font-mono text-[0.85em]">{"{id, type, tenant_id, created_at, data}"}</code>. Each kind&apos;s JSON Schema
          of <code className="font-mono text-[0.85em]">data</code> is at{" "}
          <code className="font-mono text-[0.85em]">GET /api/v1/event-types/&#123;name&#125;</code> and in the OpenAPI document&apos;s{" "}
          <code className="font-mono text-[0.85em]">webhooks</code>. Your application&apos;s own kinds are not listed here.
        </p>

        {GROUPS.map((group) => (
          <section key={group} aria-labelledby={`group-${group}`} className="mt-10">
            <h2 id={`group-${group}`} className="text-lg font-semibold text-slate-900 capitalize">
              {group.replace("_", " ")}
            </h2>
            <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200">
              {EVENT_TYPES.filter((kind) => EVENT_CATALOG[kind].group === group).map((kind) => (
                <li key={kind} id={kind} className="scroll-mt-6 px-4 py-4 target:bg-indigo-50 sm:px-6">
                  <h3 className="font-mono text-sm font-semibold text-slate-900">
                    <a href={`#${kind}`} className="hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
                      {kind}
                    </a>
                  </h3>
                  <p className="mt-1 text-sm text-slate-700">{EVENT_CATALOG[kind].description}</p>
                  <details className="mt-2 text-sm">
                    <summary className="cursor-pointer font-medium text-indigo-700 hover:underline">Example data</summary>
                    <pre className="mt-2 overflow-x-auto rounded-lg bg-code p-3 text-xs leading-relaxed text-code-fg">
                      <code>{JSON.stringify(exampleDataOf(kind), null, 2)}</code>
                    </pre>
                  </details>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </main>
    </div>
  );
}
