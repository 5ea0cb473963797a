"use client";

import type { ReactNode } from "react";
import { CopyButton } from "../ui/copy-button";
import { cx } from "../ui/cx";
import { responseLabel } from "./status";
import type { Attempt } from "./types";

const BLOCK =
  "max-h-64 overflow-auto rounded-md bg-white p-2.5 font-mono text-xs whitespace-pre-wrap break-all text-slate-800 ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600";

/** The payload as a person reads it: JSON indented, anything else as sent. */
export function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function Headers({ headers, label, testId }: { headers: Record<string, string>; label: string; testId: string }) {
  // Stored as jsonb, which keeps its own key order: shown by name.
  const entries = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <p className="text-xs text-slate-600">No headers.</p>;
  return (
    <dl aria-label={label} className="space-y-0.5 font-mono text-xs break-all text-slate-800" data-testid={testId}>
      {entries.map(([name, value]) => (
        <div key={name}>
          <dt className="inline text-slate-600">{name}: </dt>
          <dd className="inline">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Panel({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section aria-label={title} data-testid={testId} className="min-w-0 space-y-2">
      <h4 className="text-xs font-semibold tracking-wide text-slate-700 uppercase">{title}</h4>
      {children}
    </section>
  );
}

/**
 * What one attempt sent beside what came back: the request's URL and headers (signatures are
 * redacted by the server: only their first characters are kept) and the payload with a copy
 * button; the response's status, headers and body snippet.
 */
export function AttemptExchange({ attempt, payload }: { attempt: Attempt; payload: string }) {
  const n = attempt.attempt;
  const pretty = prettyPayload(payload);
  return (
    <div className="mt-3 grid gap-4 lg:grid-cols-2">
      <Panel title={`Request of attempt ${n}`} testId="attempt-request">
        {attempt.request ? (
          <>
            <p className="font-mono text-xs break-all text-slate-900">
              <span className="font-semibold">POST</span> {attempt.request.url}
            </p>
            <Headers headers={attempt.request.headers} label={`Request headers of attempt ${n}`} testId="request-headers" />
            <p className="text-xs text-slate-600">Signatures are shortened to their first characters; the secret is never shown.</p>
          </>
        ) : (
          <p className="text-xs text-slate-600">The request headers of this attempt were not kept (it predates them).</p>
        )}
        <div className="flex items-center justify-between gap-2">
          <span className="text-xs font-medium text-slate-700">Payload</span>
          <CopyButton value={pretty} label={`Copy the payload of attempt ${n}`} />
        </div>
        <pre tabIndex={0} aria-label={`Payload of attempt ${n}`} data-testid="attempt-payload" className={BLOCK}>
          {pretty}
        </pre>
      </Panel>
      <Panel title={`Response of attempt ${n}`} testId="attempt-response">
        <p className={cx("text-xs font-medium", attempt.response_status ? "text-slate-900" : "text-red-700")}>
          {responseLabel(attempt.response_status)}
        </p>
        {attempt.response_headers ? (
          <Headers headers={attempt.response_headers} label={`Response headers of attempt ${n}`} testId="response-headers" />
        ) : null}
        {attempt.response_body ? (
          <pre tabIndex={0} aria-label={`Response body of attempt ${n}`} className={BLOCK}>
            {attempt.response_body}
          </pre>
        ) : attempt.response_status ? (
          <p className="text-xs text-slate-600">Empty body.</p>
        ) : null}
      </Panel>
    </div>
  );
}
