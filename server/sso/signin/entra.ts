/**
 * Which Entra ID directories may sign in through a provider. Its issuer names one directory
 * (`https://login.microsoftonline.com/{tenant}/v2.0`) or, for the multi-tenant endpoints (common,
 * organizations), is the `{tenantid}` template every directory matches: without a limit, anyone
 * who creates a directory of their own can get an id_token the provider accepts. A provider's
 * `entra_tenant_ids`, when set, limits sign-ins to those directories, by the id_token's `tid`
 * (signed, and for the template the very tenant its verified issuer names).
 */
import { SsoRefused, type SignInProvider } from "./protocol.ts";

/**
 * Refuses an id_token from a directory the provider does not list; answers whether the directory
 * is one the provider names (its issuer's one directory, or a listed one): ./oidc-email.ts trusts
 * such a directory's addresses.
 */
export function namesEntraDirectory(provider: SignInProvider, claims: Record<string, unknown>, templatedIssuer: boolean): boolean {
  if (provider.entraTenantIds.length === 0) return !templatedIssuer;
  const tid = typeof claims.tid === "string" ? claims.tid.toLowerCase() : null;
  if (!tid || !provider.entraTenantIds.includes(tid)) {
    throw new SsoRefused(
      "issuer",
      `the id_token comes from Entra ID directory ${tid ? tid.slice(0, 64) : "(no tid)"}, which is not one of the provider's entra_tenant_ids`,
    );
  }
  return true;
}
