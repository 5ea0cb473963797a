"use client";

import type { Domain } from "@/server/domains/schemas";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { cx } from "../ui/cx";
import { RelativeTime } from "../ui/relative-time";
import { Switch } from "../ui/switch";
import { RefreshIcon, ShieldIcon, TrashIcon } from "../icons";
import { DomainStateBadge } from "./state";

interface DomainItemProps {
  domain: Domain;
  canWrite: boolean;
  isOperator: boolean;
  verifying: boolean;
  highlight: boolean;
  onVerify: () => void;
  onOverride: () => void;
  onDelete: () => void;
  /** Turning auto-join on or off is on its way for this domain. */
  joining: boolean;
  onAutoJoin: (on: boolean) => void;
}

function RecordLine({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex min-w-0 items-start gap-2">
      <dt className="w-14 shrink-0 pt-1 text-xs font-medium text-slate-600">{label}</dt>
      <dd className="flex min-w-0 flex-1 items-start gap-2">
        <code className="min-w-0 flex-1 rounded bg-slate-50 px-2 py-1 font-mono text-xs break-all text-slate-800 ring-1 ring-slate-200 ring-inset">
          {value}
        </code>
        <CopyButton value={value} label={`Copy the record's ${label.toLowerCase()}`} />
      </dd>
    </div>
  );
}

/** One domain: its state, the TXT record to publish with copy buttons, the last check, and its actions. */
export function DomainItem({
  domain,
  canWrite,
  isOperator,
  verifying,
  highlight,
  onVerify,
  onOverride,
  onDelete,
  joining,
  onAutoJoin,
}: DomainItemProps) {
  const verified = domain.state === "verified";
  return (
    <li data-testid="domain-item" data-domain={domain.domain} className={cx("px-4 py-4 sm:px-6", highlight && "bg-indigo-50/60")}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 className="font-medium break-all text-slate-900">{domain.domain}</h3>
          <DomainStateBadge domain={domain} />
        </div>
        {canWrite ? (
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="secondary" size="sm" onClick={onVerify} loading={verifying}>
              {verifying ? null : <RefreshIcon className="size-4" />}
              Verify now
            </Button>
            {isOperator && !verified ? (
              <Button variant="secondary" size="sm" onClick={onOverride}>
                <ShieldIcon className="size-4" />
                Mark verified…
              </Button>
            ) : null}
            <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Remove ${domain.domain}`} title="Remove">
              <TrashIcon className="size-4" />
            </Button>
          </div>
        ) : null}
      </div>

      <p className="mt-2 text-sm text-slate-600">
        {verified && domain.verification_method === "override"
          ? "Verified by a platform operator, without DNS: it is not re-checked. Publish this TXT record and Verify now to confirm it by DNS."
          : verified
            ? "Keep this TXT record in place: it is checked daily, and the domain fails if it is gone."
            : domain.state === "failed"
              ? "Publish this TXT record again (or fix its value), then verify."
              : "Add this TXT record at your DNS provider, then verify. It may take a few minutes to appear."}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
        <p data-testid="domain-routing" className={domain.routes_sign_ins ? "text-slate-700" : "text-slate-600"}>
          {domain.routes_sign_ins
            ? domain.state === "pending"
              ? "Routes SSO sign-ins for now (an SSO provider had it before domains were verified): verify it to keep it."
              : "Routes SSO sign-ins to this tenant's providers."
            : "Does not route SSO sign-ins until it is verified."}
        </p>
        <label className="inline-flex items-center gap-2">
          <Switch
            checked={domain.auto_join}
            onCheckedChange={onAutoJoin}
            busy={joining}
            disabled={!canWrite || (!domain.routes_sign_ins && !domain.auto_join)}
            aria-label={`Auto-join for ${domain.domain}`}
          />
          <span className="text-slate-700">Auto-join: new people with this email domain join by signing in with SSO</span>
        </label>
      </div>
      <dl className="mt-2 max-w-3xl space-y-1.5">
        <RecordLine label="Type" value="TXT" />
        <RecordLine label="Name" value={domain.verification.name} />
        <RecordLine label="Value" value={domain.verification.value} />
      </dl>

      <div className="mt-2 space-y-0.5 text-xs text-slate-600">
        {domain.last_error ? (
          <p className={cx(domain.state === "failed" ? "text-red-700" : "text-slate-700")} data-testid="domain-last-error">
            {domain.last_error}
          </p>
        ) : null}
        <p>
          {domain.verified_at && verified ? (
            <>
              Verified <RelativeTime iso={domain.verified_at} />
              {domain.verification_method === "override" ? " by a platform operator" : ""}.{" "}
            </>
          ) : null}
          {domain.last_checked_at ? (
            <>
              Last checked <RelativeTime iso={domain.last_checked_at} />.{" "}
            </>
          ) : (
            "Not looked up in DNS yet. "
          )}
          {domain.next_check_at ? "Checked again automatically." : null}
        </p>
      </div>
    </li>
  );
}
