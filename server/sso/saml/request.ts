/**
 * The AuthnRequest we send (HTTP-Redirect binding: deflated, base64, in the SSO URL's query). Its
 * ID is the pending request's `requestId`, so the InResponseTo that comes back maps to it.
 */
import { samlClient, type SamlProviderConfig } from "./config.ts";

/** xsd:ID is an NCName: a letter or "_" first, then letters, digits, ".", "-", "_". */
const NCNAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;

export async function authnRequestUrl(config: SamlProviderConfig, requestId: string, relayState: string): Promise<string> {
  if (!NCNAME.test(requestId)) throw new Error("a SAML request ID must be an NCName");
  return samlClient(config, requestId).getAuthorizeUrlAsync(relayState, undefined, {});
}
