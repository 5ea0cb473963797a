/** The one place that registers each protocol's half of the flow (imported by begin.ts and the routes). */
import { registerProtocol } from "./protocol.ts";
import { oidcHandler } from "./oidc.ts";
import { samlHandler } from "../saml/handler.ts";

registerProtocol("oidc", oidcHandler);
registerProtocol("saml", samlHandler);
