/**
 * Our SAML Assertion Consumer Service (HTTP-POST binding): where the IdP posts the SAMLResponse
 * (and RelayState, our pending request's state). See server/sso/saml/acs.ts for the relay.
 */
import { completeSaml } from "@/server/sso/saml/handler";
import { needsRelay, readAcsForm, relayPage } from "@/server/sso/saml/acs";
import { finishCallback } from "@/server/sso/signin/callback";

export const dynamic = "force-dynamic";

export async function POST(req: Request, { params }: { params: Promise<{ providerId: string }> }) {
  const { providerId } = await params;
  const form = await readAcsForm(req);
  if (needsRelay(req, form)) return relayPage(form);
  return finishCallback(req, {
    providerId,
    state: form.relayState,
    // No pending request: the response may still be IdP-initiated, which completeSaml allows or refuses.
    missing: null,
    validate: (provider, pending) => completeSaml(provider, pending, form.samlResponse),
  });
}
