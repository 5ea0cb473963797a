import type { Metadata } from "next";
import { DocsHeader } from "@/components/docs-header";
import { guides } from "./guides";

export const metadata: Metadata = {
  title: "Guides",
  description:
    "The Control Plane's guides: the console, the REST API, SSO, Directory Sync, webhooks, events, log streams, the audit log and operations.",
};

/** Every docs/*.md of the project, as README's "Where to go next" lists them. */
export default async function GuidesPage() {
  const list = await guides();
  return (
    <div className="min-h-screen bg-white">
      <DocsHeader current="/docs/guides" />
      <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Guides</h1>
        <p className="mt-3 max-w-2xl text-base text-slate-600">
          How each part of the Control Plane works, from the console to running it in production: the project&apos;s{" "}
          <code className="font-mono text-[0.85em]">docs/</code>, as they ship with this version.
        </p>
        <ul className="mt-8 divide-y divide-slate-200 rounded-lg border border-slate-200">
          {list.map((guide) => (
            <li key={guide.slug} className="px-4 py-4 sm:px-6">
              <h2 className="text-base font-semibold text-slate-900">
                <a href={`/docs/guides/${guide.slug}`} className="text-indigo-700 hover:underline">
                  {guide.title}
                </a>
              </h2>
              <p className="mt-1 text-sm text-slate-600">{guide.summary}</p>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
