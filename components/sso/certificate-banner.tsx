"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SsoProvider } from "@/server/sso/schemas";
import { messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { useNow } from "../ui/relative-time";
import { useToast } from "../ui/toast";
import { RefreshIcon } from "../icons";
import { CERTIFICATE_URGENT_DAYS, CERTIFICATE_WARNING_DAYS } from "./metadata-status";

const DAY = 24 * 60 * 60_000;
const DATE = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });
/** A tenant has a handful of providers; the banner looks at the first page of them. */
const PROVIDERS = 100;

interface Expiring {
  provider: SsoProvider;
  expires: Date;
  /** Milliseconds left (negative once expired), and whole days, rounded down. */
  left: number;
  days: number;
}

/**
 * The enabled SAML providers whose signing certificate ends within 30 days (or has ended), soonest
 * first: the ones housekeeping announces with `sso_provider.certificate_expiring`.
 */
function expiringOf(providers: SsoProvider[], now: number): Expiring[] {
  return providers
    .flatMap((provider) => {
      const at = provider.metadata.certificate_expires_at;
      if (!provider.enabled || provider.protocol !== "saml" || !at) return [];
      const expires = new Date(at);
      const left = expires.getTime() - now;
      return left <= CERTIFICATE_WARNING_DAYS * DAY ? [{ provider, expires, left, days: Math.floor(left / DAY) }] : [];
    })
    .sort((a, b) => a.expires.getTime() - b.expires.getTime());
}

const inDays = (days: number) => (days === 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`);

function CertificateAlert({
  tenantId,
  item,
  canWrite,
  onEdit,
}: {
  tenantId: string;
  item: Expiring;
  canWrite: boolean;
  onEdit: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const refresh = useMutation(
    trpc.tenantSso.refreshMetadata.mutationOptions({ onSettled: () => queryClient.invalidateQueries(trpc.tenantSso.pathFilter()) }),
  );
  const { provider, expires, left, days } = item;
  const expired = left <= 0;
  const date = <time dateTime={expires.toISOString()}>{DATE.format(expires)}</time>;
  const name = <span className="font-semibold">{provider.name}</span>;

  function refreshMetadata() {
    refresh.mutate(
      { tenant_id: tenantId, provider_id: provider.id },
      {
        onSuccess: ({ metadata }) => {
          const renewed = metadata.certificate_expires_at && Date.parse(metadata.certificate_expires_at) > expires.getTime();
          notify(
            renewed ? (
              <>
                {name} now has a certificate valid until {DATE.format(new Date(metadata.certificate_expires_at!))}.
              </>
            ) : (
              <>
                The metadata of {name} still lists the certificate ending {DATE.format(expires)}: the IdP does not publish the new one yet.
              </>
            ),
            renewed ? "success" : "info",
          );
        },
        onError: (error) =>
          notify(
            <>
              The metadata of {name} could not be checked: {messageOf(error)}
            </>,
            "danger",
          ),
      },
    );
  }

  return (
    <Alert
      tone={left <= CERTIFICATE_URGENT_DAYS * DAY ? "danger" : "warning"}
      title={
        expired ? (
          <>
            The signing certificate of {name} expired on {date}
          </>
        ) : (
          <>
            The signing certificate of {name} expires on {date} ({inDays(days)})
          </>
        )
      }
      action={
        canWrite ? (
          <span className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={refreshMetadata} loading={refresh.isPending}>
              {refresh.isPending ? null : <RefreshIcon className="size-4" />}
              Refresh metadata
            </Button>
            <Button variant="secondary" size="sm" onClick={onEdit}>
              Edit provider
            </Button>
          </span>
        ) : null
      }
    >
      <p data-testid="certificate-banner" data-provider-id={provider.id}>
        Ask your identity provider&apos;s admin for a new signing certificate in its SAML app
        {canWrite
          ? ", then refresh the metadata here (or edit the provider if its metadata moved), or send them a setup link for this provider (Setup links, below) to do it themselves. "
          : "; a tenant admin then refreshes the metadata here. "}
        {expired
          ? "Until this provider has the new certificate, sign-ins through it may fail."
          : "Until this provider has the new certificate, sign-ins through it may fail once this one ends."}
      </p>
    </Alert>
  );
}

/** On a tenant's SSO page: one alert per enabled SAML provider whose certificate ends within 30 days (danger within 7 or past). */
export function CertificateBanner({
  tenantId,
  canWrite,
  onEdit,
}: {
  tenantId: string;
  canWrite: boolean;
  onEdit: (provider: SsoProvider) => void;
}) {
  const trpc = useTRPC();
  const now = useNow();
  const query = useQuery(trpc.tenantSso.list.queryOptions({ tenant_id: tenantId, page_size: PROVIDERS }));
  if (now === null || !query.data) return null;
  const expiring = expiringOf(query.data.results, now);
  if (!expiring.length) return null;
  return (
    <div className="mb-4 space-y-3">
      {expiring.map((item) => (
        <CertificateAlert key={item.provider.id} tenantId={tenantId} item={item} canWrite={canWrite} onEdit={() => onEdit(item.provider)} />
      ))}
    </div>
  );
}
