/**
 * When an OIDC email may sign someone in. The email picks the account here (an existing member
 * keeps their role), so an address the OP never checked would let whoever typed it in at the OP
 * sign in as its owner. The rule, per provider type:
 *
 * - `oidc` and `google_workspace`: the OP must say `email_verified: true`. Google sends it for every
 *   account; a missing claim is refused like a false one.
 * - `azure_ad`: Entra ID never sends `email_verified`. Its addresses are set by the directory's own
 *   admins, so they count as verified when the id_token comes from a directory the provider names
 *   (its issuer names one directory, or `entra_tenant_ids` lists it: ./entra.ts). Through the
 *   multi-tenant `{tenantid}` issuer with no list any directory can answer, and its admins can
 *   give a user any address (the "nOAuth" attack): then only Entra ID's own
 *   word counts, its optional `xms_edov` claim (the email's domain owner is verified), or
 *   `email_verified: true`.
 *
 * An explicit `email_verified: false` is refused for every type.
 */
import type { ProviderType } from "../schemas.ts";
import { SsoRefused } from "./protocol.ts";

// Some OPs (AWS Cognito, say) send the booleans as strings.
const yes = (value: unknown) => value === true || value === "true";
const no = (value: unknown) => value === false || value === "false";

/**
 * The refusal when `claims`' email is not known to be verified; else null. `namedDirectory`: the
 * id_token comes from a directory the provider names (always true outside Entra ID's `{tenantid}` template).
 */
export function unverifiedEmailRefusal(
  providerType: ProviderType,
  claims: Record<string, unknown>,
  namedDirectory: boolean,
): SsoRefused | null {
  if (no(claims.email_verified)) return refusal("the identity provider says the email address is not verified");
  if (yes(claims.email_verified)) return null;
  if (providerType !== "azure_ad") return refusal("the identity provider did not say the email address is verified (email_verified)");
  if (no(claims.xms_edov)) return refusal("Entra ID says the email's domain owner is not verified (xms_edov)");
  if (namedDirectory || yes(claims.xms_edov)) return null;
  return refusal(
    "the email comes from an Entra ID directory the provider does not name (multi-tenant issuer) and Entra ID did not say it is verified (xms_edov)",
  );
}

const refusal = (detail: string) => new SsoRefused("email_not_verified", detail);
