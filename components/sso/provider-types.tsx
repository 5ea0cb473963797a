import type { ReactNode } from "react";
import type { ProviderType } from "@/server/sso/schemas";
import { cx } from "../ui/cx";

interface TypeInfo {
  label: string;
  /** What the metadata URL points at for this type. */
  urlLabel: string;
  placeholder: string;
  hint: string;
}

/** How each provider type is named and what its metadata URL looks like. */
export const PROVIDER_TYPE_INFO: Record<ProviderType, TypeInfo> = {
  saml: {
    label: "SAML 2.0",
    urlLabel: "SAML metadata URL",
    placeholder: "https://idp.example.com/saml/metadata.xml",
    hint: "The identity provider's SAML metadata document (an EntityDescriptor in XML).",
  },
  oidc: {
    label: "OpenID Connect",
    urlLabel: "OpenID discovery URL",
    placeholder: "https://login.example.com/.well-known/openid-configuration",
    hint: "The issuer's discovery document, usually ending in /.well-known/openid-configuration.",
  },
  google_workspace: {
    label: "Google Workspace",
    urlLabel: "OpenID discovery URL",
    placeholder: "https://accounts.google.com/.well-known/openid-configuration",
    hint: "Google's discovery document: https://accounts.google.com/.well-known/openid-configuration.",
  },
  azure_ad: {
    label: "Microsoft Entra ID",
    urlLabel: "OpenID discovery URL",
    placeholder: "https://login.microsoftonline.com/{tenant}/v2.0/.well-known/openid-configuration",
    hint: "Replace {tenant} with your directory (tenant) ID or domain.",
  },
};

/** In the order the type select offers them. */
export const PROVIDER_TYPE_OPTIONS = Object.keys(PROVIDER_TYPE_INFO) as ProviderType[];

/**
 * SAML signs with certificates listed in its metadata; OpenID discovery documents list none.
 * Entra ID and Google Workspace speak SAML when their metadata is SAML (an uploaded file always is).
 */
export const hasCertificates = (provider: { provider_type: ProviderType; protocol: "saml" | "oidc" }) =>
  provider.provider_type === "saml" || provider.protocol === "saml";

/** A small mark per type on a tinted tile: our own shapes, not the vendors' logos. Decorative. */
export function ProviderTypeIcon({ type, className }: { type: ProviderType; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={cx("size-8 shrink-0", className)} aria-hidden="true" data-provider-type={type}>
      <rect width="24" height="24" rx="6" className={TILE[type]} />
      {MARK[type]}
    </svg>
  );
}

const TILE: Record<ProviderType, string> = {
  saml: "fill-orange-100",
  oidc: "fill-teal-100",
  google_workspace: "fill-slate-100",
  azure_ad: "fill-sky-100",
};

const MARK: Record<ProviderType, ReactNode> = {
  // A shield with a keyhole: signed assertions.
  saml: (
    <g className="fill-orange-600">
      <path d="M12 4.5 18 7v4.6c0 3.7-2.5 6.6-6 7.9-3.5-1.3-6-4.2-6-7.9V7l6-2.5Z" />
      <circle cx="12" cy="11" r="1.7" className="fill-orange-100" />
      <path d="M11.3 12h1.4l.4 3h-2.2l.4-3Z" className="fill-orange-100" />
    </g>
  ),
  // A key: OpenID tokens.
  oidc: (
    <g className="stroke-teal-700" fill="none" strokeWidth="2" strokeLinecap="round">
      <circle cx="9" cy="12" r="3.5" />
      <path d="M12.5 12H19M16.5 12v2.5M19 12v2" />
    </g>
  ),
  // Four coloured quarters of a ring.
  google_workspace: (
    <g fill="none" strokeWidth="3">
      <path d="M12 6a6 6 0 0 1 6 6" className="stroke-blue-500" />
      <path d="M18 12a6 6 0 0 1-6 6" className="stroke-emerald-500" />
      <path d="M12 18a6 6 0 0 1-6-6" className="stroke-amber-400" />
      <path d="M6 12a6 6 0 0 1 6-6" className="stroke-red-500" />
    </g>
  ),
  // Two overlapping planes forming a peak.
  azure_ad: (
    <g>
      <path d="M11 5.5 5 18h5.2l4-7.8L11 5.5Z" className="fill-sky-700" />
      <path d="M14.6 9.2 11.4 18H19l-4.4-8.8Z" className="fill-sky-500" />
    </g>
  ),
};
