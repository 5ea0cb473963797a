/**
 * The SAML half of the sign-in flow (server/sso/signin/protocol.ts): `begin` sends the browser to
 * the IdP with our AuthnRequest (its ID the pending request's `requestId`, RelayState its `state`);
 * `completeSaml` turns the SAMLResponse posted to our ACS into the profile, or an SsoRefused.
 */
import { database } from "../../db/client.ts";
import { SsoRefused, type PendingSignIn, type ProtocolHandler, type SignInProvider, type SsoProfile } from "../signin/protocol.ts";
import { loadSamlConfig } from "./config.ts";
import { authnRequestUrl } from "./request.ts";
import { validateForProvider } from "./rollover.ts";
import { reauthenticationRefusal } from "../signin/reauthentication.ts";

export const samlHandler: ProtocolHandler = {
  async begin(provider, pending) {
    const config = await loadSamlConfig((await database()).prisma, provider);
    // A step-up must prove the person is there now: ForceAuthn, no single sign-on from an earlier login.
    return authnRequestUrl(config, pending.requestId, pending.state, { forceAuthn: pending.purpose === "stepup" });
  },
};

/**
 * Validates what the IdP posted, against the request this browser started (null when none was
 * found: then only an IdP-initiated response can pass, and only if the provider allows it).
 */
export async function completeSaml(provider: SignInProvider, pending: PendingSignIn | null, samlResponse: string): Promise<SsoProfile> {
  if (provider.protocol !== "saml") throw new SsoRefused("unsupported", "this provider does not use SAML");
  const { profile, authenticatedAt } = await validateForProvider(await database(), provider, samlResponse, pending?.requestId ?? null);
  // ForceAuthn was asked, but an IdP may answer from its session anyway: the signed AuthnInstant tells.
  if (pending?.purpose === "stepup") {
    const refusal = reauthenticationRefusal(pending.createdAt, authenticatedAt);
    if (refusal) throw refusal;
  }
  return profile;
}
