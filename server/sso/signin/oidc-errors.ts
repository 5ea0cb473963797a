/** openid-client's failures, as the named refusals the audit trail and Test sign-in show. */
import * as oidc from "openid-client";
import { OutboundError } from "../../outbound/guard.ts";
import { SsoRefused } from "./protocol.ts";

interface Coded {
  code?: string;
  message?: string;
  cause?: { message?: string; cause?: { claim?: string }; claim?: string } & Record<string, unknown>;
  error?: string;
  error_description?: string;
}

export function refusalOf(error: unknown): SsoRefused {
  if (error instanceof SsoRefused) return error;
  const e = (error ?? {}) as Coded;
  if (error instanceof oidc.AuthorizationResponseError) {
    return new SsoRefused("idp_error", `the identity provider answered ${e.error ?? "an error"}`);
  }
  if (error instanceof oidc.ResponseBodyError) {
    if (e.error === "invalid_grant") {
      return new SsoRefused(
        "pkce",
        "the identity provider refused the authorization code (PKCE verifier mismatch, or the code was already used or expired)",
      );
    }
    return new SsoRefused("idp_error", `the token endpoint answered ${e.error ?? "an error"}`);
  }
  const outbound = [error, e.cause, (e.cause as Coded | undefined)?.cause].find((x) => x instanceof OutboundError) as
    OutboundError | undefined;
  if (outbound) return new SsoRefused("idp_error", `the identity provider could not be reached (${outbound.message})`);

  const inner = e.cause ?? {};
  const detail = String(inner.message ?? e.message ?? "");
  const claim = inner.cause?.claim ?? inner.claim;
  switch (e.code) {
    case "OAUTH_JWT_CLAIM_COMPARISON_FAILED":
      if (claim === "nonce") return new SsoRefused("nonce", "the id_token's nonce is not the one this sign-in sent");
      if (claim === "aud" || claim === "azp") return new SsoRefused("audience", "the id_token was issued for another client (aud)");
      if (claim === "iss") return new SsoRefused("issuer", "the id_token was issued by another issuer (iss)");
      return new SsoRefused("invalid_response", `the id_token's ${claim ?? "claims"} did not validate`);
    case "OAUTH_JWT_TIMESTAMP_CHECK_FAILED":
      return new SsoRefused("clock", "the id_token is expired or not yet valid (exp/iat/nbf)");
    case "OAUTH_KEY_SELECTION_FAILED":
      return new SsoRefused("signature", "the id_token is signed by a key the provider's JWKS does not publish");
    case "OAUTH_INVALID_RESPONSE":
      if (/signature/i.test(detail))
        return new SsoRefused("signature", "the id_token signature does not verify against the provider's JWKS");
      if (/"state"/.test(detail)) return new SsoRefused("state", "the response's state is not this sign-in's");
      if (/"iss"/.test(detail)) return new SsoRefused("issuer", "the response names another issuer (iss)");
      return new SsoRefused("invalid_response", detail.slice(0, 200) || "the identity provider's response is invalid");
    default:
      return new SsoRefused("invalid_response", (detail || "the identity provider's response could not be processed").slice(0, 200));
  }
}
