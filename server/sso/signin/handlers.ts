/** The one place that registers each protocol's half of the flow (imported by begin.ts and the routes). */
import { registerProtocol } from "./protocol.ts";
import { oidcHandler } from "./oidc.ts";

registerProtocol("oidc", oidcHandler);
// The SAML half registers here: registerProtocol("saml", samlHandler) from server/sso/saml/.
