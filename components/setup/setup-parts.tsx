"use client";

import type { ReactNode } from "react";
import type { TestSignInResult } from "@/server/sso/signin/schemas";
import { Alert } from "../ui/alert";
import { CopyButton } from "../ui/copy-button";
import { cx } from "../ui/cx";

/** One numbered step of a guided setup: done, current, or still ahead (dimmed). */
export function Step({
  n,
  title,
  state,
  children,
  testId,
}: {
  n: number;
  title: ReactNode;
  state: "done" | "current" | "ahead";
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <li className="relative flex gap-4" data-testid={testId} data-state={state}>
      <span
        aria-hidden="true"
        className={cx(
          "flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold",
          state === "done" && "bg-emerald-600 text-on-solid",
          state === "current" && "bg-indigo-600 text-on-solid",
          state === "ahead" && "bg-slate-200 text-slate-600",
        )}
      >
        {state === "done" ? "✓" : n}
      </span>
      <div className={cx("min-w-0 flex-1 pb-8", state === "ahead" && "opacity-60")}>
        <h2 className="pt-1 text-base font-semibold text-slate-900">
          <span className="sr-only">
            Step {n}
            {state === "done" ? " (done)" : ""}:{" "}
          </span>
          {title}
        </h2>
        {children && state !== "ahead" ? <div className="mt-3 space-y-4">{children}</div> : null}
      </div>
    </li>
  );
}

/** A value to paste elsewhere, with its name and a copy button. */
export function ValueRow({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200 ring-inset">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 flex items-start justify-between gap-2">
        <code className="min-w-0 font-mono text-xs break-all text-slate-900" data-testid={testId}>
          {value}
        </code>
        <CopyButton value={value} label={`Copy ${label}`} />
      </dd>
    </div>
  );
}

/** What the last Test sign-in received from the IdP, or why it was refused. */
export function TestOutcome({ result }: { result: TestSignInResult }) {
  if (result.status === "pending")
    return <Alert title="Waiting for your identity provider">Finish signing in there, then come back.</Alert>;
  if (result.status === "failed") {
    return (
      <Alert tone="danger" title={`Test sign-in failed: ${result.reason ?? "unknown reason"}`}>
        <p data-testid="setup-test-detail">{result.detail}</p>
      </Alert>
    );
  }
  const profile = result.profile!;
  return (
    <Alert tone="success" title="Test sign-in succeeded">
      <dl className="mt-1 grid gap-x-6 gap-y-1 sm:grid-cols-2" data-testid="setup-test-profile">
        <div>
          <dt className="inline font-medium">Email: </dt>
          <dd className="inline break-all">{profile.email}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Name: </dt>
          <dd className="inline">{[profile.first_name, profile.last_name].filter(Boolean).join(" ") || "not sent"}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="inline font-medium">Subject: </dt>
          <dd className="inline font-mono text-xs break-all">{profile.id}</dd>
        </div>
      </dl>
    </Alert>
  );
}
