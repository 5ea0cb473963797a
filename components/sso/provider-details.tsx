"use client";

import type { ReactNode } from "react";
import type { SsoProvider } from "@/server/sso/schemas";
import { CopyButton } from "../ui/copy-button";
import { formatExact, RelativeTime } from "../ui/relative-time";
import { DomainList } from "./domain-list";
import { DomainRoutingNotice } from "./domain-routing-notice";
import { CertificateExpiry, MetadataStatusBadge } from "./metadata-status";
import { hasCertificates, PROVIDER_TYPE_INFO } from "./provider-types";

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

function Value({ value, copyLabel }: { value: string | null; copyLabel?: string }) {
  if (!value) return <span className="text-slate-500">Not known yet</span>;
  return (
    <span className="inline-flex max-w-full items-start gap-1">
      <code className="font-mono text-xs break-all text-slate-800">{value}</code>
      {copyLabel ? <CopyButton value={value} label={copyLabel} className="-my-1.5 shrink-0" /> : null}
    </span>
  );
}

/** What the last metadata check read from the document, and what the provider is set to. */
export function ProviderDetails({ provider, actions }: { provider: SsoProvider; actions?: ReactNode }) {
  const { metadata } = provider;
  const saml = hasCertificates(provider);
  return (
    <div className="space-y-4">
      <DomainRoutingNotice tenantId={provider.tenant_id} domains={provider.domains} />
      <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
        <Item term="Type">{PROVIDER_TYPE_INFO[provider.provider_type].label}</Item>
        {provider.metadata_source === "xml" ? (
          <Item term="SAML metadata">
            <span data-testid="metadata-source">From an uploaded file</span>
          </Item>
        ) : (
          <Item term={PROVIDER_TYPE_INFO[provider.provider_type].urlLabel}>
            <Value value={provider.metadata_url} copyLabel={`Copy the URL of ${provider.name}`} />
          </Item>
        )}
        <Item term="Domains">
          <DomainList domains={provider.domains} />
        </Item>
        <Item term="Metadata">
          <span className="inline-flex flex-wrap items-center gap-2">
            <MetadataStatusBadge metadata={metadata} />
            {metadata.checked_at ? (
              <span className="text-slate-600">
                checked <RelativeTime iso={metadata.checked_at} />
              </span>
            ) : (
              <span className="text-slate-600">not checked yet</span>
            )}
          </span>
        </Item>
        {metadata.error ? (
          <Item term="Error">
            <span className="text-red-700" data-testid="metadata-error">
              {metadata.error}
            </span>
          </Item>
        ) : null}
        <Item term={saml ? "IdP entity ID" : "Issuer"}>
          <Value value={saml ? metadata.entity_id : metadata.issuer} copyLabel={saml ? "Copy the IdP entity ID" : "Copy the issuer"} />
        </Item>
        <Item term={saml ? "SSO URL" : "Authorization endpoint"}>
          <Value value={metadata.sso_url} />
        </Item>
        {saml ? (
          <Item term="Signing certificate expires">
            <CertificateExpiry provider={provider} />
          </Item>
        ) : (
          <>
            <Item term="Token endpoint">
              <Value value={metadata.token_endpoint} />
            </Item>
            <Item term="JWKS URI">
              <Value value={metadata.jwks_uri} />
            </Item>
          </>
        )}
        <Item term="Checked at">
          {metadata.checked_at ? formatExact(metadata.checked_at) : <span className="text-slate-500">Not yet</span>}
        </Item>
      </dl>
      {provider.client_secret_dropped ? (
        <p
          role="note"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="client-secret-dropped"
        >
          <strong className="font-medium">Enter the client secret again.</strong> It was dropped when the discovery URL changed, so that it
          never reaches another IdP. Sign-in through this provider is refused until you enter it (Edit).
        </p>
      ) : null}
      {provider.allow_idp_initiated ? (
        <p
          role="note"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="idp-initiated-warning"
        >
          <strong className="font-medium">IdP-initiated sign-in is on.</strong> Responses the IdP sends without being asked are accepted, so
          a page elsewhere can sign a visitor into this tenant as someone else (login CSRF). Turn it off unless your IdP&apos;s app launcher
          needs it.
        </p>
      ) : null}
      {actions}
    </div>
  );
}
