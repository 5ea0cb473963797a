/**
 * The SAML half of the sign-in flow (the contract is server/sso/signin/protocol.ts): `begin` sends
 * the browser to the IdP with our AuthnRequest (its ID the pending request's `requestId`, its
 * RelayState the pending `state`); `completeSaml` turns the SAMLResponse posted to our ACS into
 * the profile, or throws an SsoRefused. The parameter types are the parts of the contract's
 * SignInProvider / PendingSignIn this half reads.
 */
import { database } from "../../db/client.ts";
import { loadSamlConfig } from "./config.ts";
import type { SamlProfile } from "./profile.ts";
import { SsoRefused } from "./refused.ts";
import { authnRequestUrl } from "./request.ts";
import { validateForProvider } from "./rollover.ts";

interface Provider {
  id: string;
  protocol: "saml" | "oidc";
  allowIdpInitiated: boolean;
}

export const samlHandler = {
  async begin(provider: Provider, pending: { requestId: string; state: string }): Promise<string> {
    const config = await loadSamlConfig((await database()).prisma, provider);
    return authnRequestUrl(config, pending.requestId, pending.state);
  },
};

/**
 * Validates what the IdP posted against the request this browser started (null when none was
 * found: then only an IdP-initiated response can pass, and only if the provider allows it).
 */
export async function completeSaml(provider: Provider, pending: { requestId: string } | null, samlResponse: string): Promise<SamlProfile> {
  if (provider.protocol !== "saml") throw new SsoRefused("unsupported", "this provider does not use SAML");
  return (await validateForProvider(await database(), provider, samlResponse, pending?.requestId ?? null)).profile;
}
