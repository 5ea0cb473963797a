import type { ReactNode } from "react";
import type { DirectoryProvider } from "@/server/directories/schemas";
import { CopyButton } from "../ui/copy-button";
import { PROVIDER_STEPS } from "./provider-steps";

/** A value to paste into the IdP, named as the IdP names it, with a copy button. */
export function PasteValue({ label, value, testId, secret }: { label: string; value: string; testId: string; secret?: boolean }) {
  return (
    <div className="min-w-0">
      <p className="text-xs font-medium text-slate-600">{label}</p>
      <div className="mt-1 flex items-start gap-2">
        <code
          className={
            secret
              ? "block min-w-0 flex-1 rounded-md bg-amber-50 px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-amber-300 select-all"
              : "block min-w-0 flex-1 rounded-md bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-slate-300 select-all"
          }
          data-testid={testId}
        >
          {value}
        </code>
        <CopyButton value={value} label={`Copy the ${label}`} className="mt-1 shrink-0" />
      </div>
    </div>
  );
}

/**
 * The chosen IdP's steps to start provisioning: where the base URL and the token go and which
 * features to turn on. `values` shows what to paste (the token only right after it was made).
 */
export function SetupSteps({ provider, values }: { provider: DirectoryProvider; values?: ReactNode }) {
  const guide = PROVIDER_STEPS[provider];
  return (
    <div className="space-y-4 text-sm text-slate-700" data-testid="setup-steps" data-provider={provider}>
      {guide.note ? <p className="rounded-md bg-slate-50 p-3 text-slate-700 ring-1 ring-slate-200">{guide.note}</p> : null}
      {values}
      <ol className="list-decimal space-y-2 pl-5 marker:text-slate-500">
        {guide.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <div>
        <p className="font-medium text-slate-900">Turn on in {guide.name}</p>
        <ul className="mt-1.5 flex flex-wrap gap-1.5">
          {guide.features.map((feature) => (
            <li
              key={feature}
              className="rounded-md bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200 ring-inset"
            >
              {feature}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
