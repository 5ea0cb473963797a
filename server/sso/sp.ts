/**
 * Our side of each provider (what the customer's IdP admin pastes): one SAML service provider and
 * one OIDC redirect URI per provider, under APP_URL. The SAML entity ID is the metadata URL, as
 * most IdPs expect a resolvable one.
 */
import { appUrl } from "../env.ts";

export interface SamlSpDetails {
  entity_id: string;
  acs_url: string;
  metadata_url: string;
}

export interface OidcSpDetails {
  redirect_uri: string;
}

export function samlSpDetails(providerId: string, base = appUrl()): SamlSpDetails {
  const metadata = `${base}/api/sso/saml/${providerId}/metadata`;
  return { entity_id: metadata, acs_url: `${base}/api/sso/saml/${providerId}/acs`, metadata_url: metadata };
}

export function oidcSpDetails(providerId: string, base = appUrl()): OidcSpDetails {
  return { redirect_uri: `${base}/api/sso/oidc/${providerId}/callback` };
}
