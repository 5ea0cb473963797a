"use client";

import type { SsoProvider } from "@/server/sso/schemas";
import { Badge } from "../ui/badge";
import { formatExact, useNow } from "../ui/relative-time";
import { Spinner } from "../ui/spinner";
import { hasCertificates } from "./provider-types";

type Metadata = SsoProvider["metadata"];

const DAY = 24 * 60 * 60_000;
/**
 * A signing certificate closer than this to its end gets a warning. The thresholds of
 * `sso_provider.certificate_expiring` (server/sso/certificate-schemas.ts), kept equal.
 */
export const CERTIFICATE_WARNING_DAYS = 30;
/** Inside this many days the warning turns to danger (the SSO page's banner). */
export const CERTIFICATE_URGENT_DAYS = 7;

const STATUS = {
  pending: { tone: "neutral", label: "Checking" },
  valid: { tone: "success", label: "Valid" },
  invalid: { tone: "danger", label: "Invalid" },
  unreachable: { tone: "warning", label: "Unreachable" },
} as const;

/** The last metadata check's outcome; the error, if any, in a tooltip (and in the details). */
export function MetadataStatusBadge({ metadata }: { metadata: Metadata }) {
  const { tone, label } = STATUS[metadata.status];
  return (
    <span title={metadata.error ?? undefined} data-testid="metadata-status" data-status={metadata.status}>
      <Badge tone={tone} className="gap-1.5">
        {metadata.status === "pending" ? <Spinner className="size-3" /> : null}
        {label}
      </Badge>
    </span>
  );
}

const DATE = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });
const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "in 12 days", "yesterday", "in 3 years": whole days up to two months, then months and years. */
function untilText(days: number) {
  const size = Math.abs(days);
  if (size < 60) return RELATIVE.format(days, "day");
  if (size < 730) return RELATIVE.format(Math.round(days / 30), "month");
  return RELATIVE.format(Math.round(days / 365), "year");
}

/** Days until the SAML signing certificate ends (negative once expired), or null when not known. */
function useDaysLeft(provider: Pick<SsoProvider, "provider_type" | "protocol" | "metadata">): number | null {
  const now = useNow();
  const expires = provider.metadata.certificate_expires_at;
  if (!hasCertificates(provider) || !expires || now === null) return null;
  return Math.floor((Date.parse(expires) - now) / DAY);
}

/** Under 30 days a warning, under 7 danger (as the SSO page's banner). */
const urgency = (days: number) => (days < CERTIFICATE_URGENT_DAYS ? "danger" : "warning");

/** A danger badge once expired or under 7 days, a warning badge under 30 days, else nothing. */
export function CertificateWarning({ provider }: { provider: Pick<SsoProvider, "provider_type" | "protocol" | "metadata"> }) {
  const days = useDaysLeft(provider);
  if (days === null || days >= CERTIFICATE_WARNING_DAYS) return null;
  if (days < 0) return <Badge tone="danger">Certificate expired</Badge>;
  return <Badge tone={urgency(days)}>Certificate expires {untilText(days)}</Badge>;
}

/**
 * When the SAML signing certificate ends: its date, with a warning badge under 30 days and a
 * danger badge under 7 and once expired. OpenID providers publish keys, not certificates: a dash.
 */
export function CertificateExpiry({ provider }: { provider: Pick<SsoProvider, "provider_type" | "protocol" | "metadata"> }) {
  const days = useDaysLeft(provider);
  const expires = provider.metadata.certificate_expires_at;
  if (!hasCertificates(provider) || !expires) {
    return (
      <span className="text-slate-500">
        <span aria-hidden="true">—</span>
        <span className="sr-only">{hasCertificates(provider) ? "Not known yet" : "Not applicable"}</span>
      </span>
    );
  }
  return (
    <span className="inline-flex flex-col items-start gap-1" title={formatExact(expires)} data-testid="certificate-expiry">
      <time dateTime={expires} className="text-slate-700">
        {DATE.format(new Date(expires))}
      </time>
      {days === null ? null : days < 0 ? (
        <Badge tone="danger">Expired</Badge>
      ) : days < CERTIFICATE_WARNING_DAYS ? (
        <Badge tone={urgency(days)}>Expires {untilText(days)}</Badge>
      ) : (
        <span className="text-xs text-slate-600">{untilText(days)}</span>
      )}
    </span>
  );
}
