/**
 * Stand-in for `SsoRefused` of server/sso/signin/protocol.ts (the sign-in contract, landing from
 * the sso-flow branch), with the same shape and the reasons this half uses. When that file is on
 * main this module becomes a re-export of it.
 */
export type SamlRefusalReason =
  | "signature"
  | "certificate"
  | "audience"
  | "destination"
  | "clock"
  | "replay"
  | "unknown_request"
  | "idp_initiated"
  | "issuer"
  | "not_configured"
  | "metadata"
  | "idp_error"
  | "invalid_response"
  | "no_email"
  | "unsupported";

export class SsoRefused extends Error {
  override name = "SsoRefused";
  constructor(
    readonly reason: SamlRefusalReason,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}
