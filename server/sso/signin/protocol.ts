/**
 * The contract between the sign-in spine (pending requests, completion, sessions, audit) and the
 * protocol halves (OIDC in ./oidc.ts, SAML under ../saml/). A protocol half knows how to send the
 * browser to the IdP and how to turn what comes back into an `SsoProfile` or an `SsoRefused`; it
 * never creates users, sessions or audit events: `completeSignIn` does, for every protocol alike.
 *
 * The flow, for both protocols:
 *   1. spine: `beginSignIn` picks the provider, makes a `PendingSignIn` (state, nonce, PKCE verifier,
 *      request id: all random), calls `handlerFor(protocol).begin(provider, pending)` and stores the
 *      pending row (Postgres, 10 minutes, single use) → the browser goes to the returned URL.
 *   2. protocol route (OIDC callback / SAML ACS): `takePendingSignIn(db, state)` (OIDC `state`,
 *      SAML `RelayState`) consumes the row atomically: null when unknown, used or expired (or when
 *      a SAML response is IdP-initiated). The protocol half validates the response against it.
 *   3. the route calls `completeSignIn(db, pending, provider, outcome, request)` with the profile or
 *      the refusal, and redirects the browser where the result says.
 */
import type { DomainAccess } from "../../domains/index.ts";
import type { RequestInfo, TenantRole } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import type { ProviderType } from "../schemas.ts";

export type SsoProtocol = "oidc" | "saml";
export const SSO_PROTOCOLS = ["oidc", "saml"] as const satisfies readonly SsoProtocol[];

/** What a sign-in proved about the person, normalised across protocols (WorkOS's profile shape). */
export interface SsoProfile {
  /** The subject at the IdP: OIDC `sub`, SAML NameID. Stable per person and provider. */
  id: string;
  /** Lower-cased. A response without one is refused with `no_email`. */
  email: string;
  first_name: string | null;
  last_name: string | null;
  groups: string[];
  /** Which IdP said so: the OIDC issuer (as in the id_token) or the SAML Issuer / entity ID. */
  issuer: string;
  /** Every claim or attribute received, for Test sign-in and the OAuth broker; never logged or audited. */
  raw_attributes: Record<string, unknown>;
}

/**
 * Why a sign-in was refused. Closed: tests, the audit trail (`sso.login_failed` details.reason) and
 * the Test sign-in page all name these.
 */
export const REFUSAL_REASONS = [
  "signature", // SAML: unsigned, bad or wrapped (XSW) signature; OIDC: id_token not signed by a JWKS key
  "certificate", // SAML: signed by a certificate the provider's metadata does not list
  "audience", // SAML Audience / OIDC aud is not us
  "destination", // SAML Destination / Recipient is not our ACS
  "clock", // outside NotBefore/NotOnOrAfter (+ skew), or id_token expired / issued in the future
  "replay", // an assertion ID already accepted
  "unknown_request", // no pending request: unknown, already used, or InResponseTo we never issued
  "expired_request", // the pending request is older than 10 minutes
  "idp_initiated", // an unsolicited SAML response while allow_idp_initiated is false
  "state", // OIDC state missing or not ours
  "nonce", // id_token nonce is not the one we sent
  "pkce", // the OP refused the code_verifier, or the code was already used
  "issuer", // iss / SAML Issuer is not the provider's
  "unknown_domain", // no enabled provider has this email domain
  "unknown_provider", // the provider does not exist (or is not the one the request was for)
  "disabled", // the provider is disabled
  "not_configured", // the provider lacks what this protocol needs (client_id/secret, SSO URL, certificates)
  "unsupported", // the provider's protocol has no handler here
  "idp_error", // the IdP answered with an error (error=access_denied, a SAML non-Success status)
  "metadata", // the provider's metadata / discovery document could not be fetched or read
  "invalid_response", // malformed or incomplete response
  "no_email", // the profile has no usable email address
  "email_not_verified", // OIDC: the OP did not vouch that the email is verified (./oidc-email.ts)
  "domain_mismatch", // the email's domain is not one of the provider's domains
  "domain_not_verified", // the email's domain is the provider's, but not (or no longer) a verified domain of its tenant
  "not_a_member", // the person is not a member of the tenant, and the email's domain does not auto-join
  "deprovisioned", // the person is an inactive (deprovisioned) directory user of the tenant (Directory Sync)
  "different_user", // step-up: the IdP vouched for someone other than the console session's user
  "not_reauthenticated", // step-up: the IdP reused an earlier sign-in (auth_time / AuthnInstant before the step-up began, or no AuthnInstant)
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/**
 * A refused sign-in. `detail` is safe to show the admin on the Test sign-in page and to store in
 * the audit trail: it names what was wrong, never assertion content, tokens or secrets.
 */
export class SsoRefused extends Error {
  override name = "SsoRefused";
  constructor(
    readonly reason: RefusalReason,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/**
 * What the sign-in is for: the console, an admin's Test sign-in, an application through the OAuth
 * broker, or a step-up of a console session that was signed in through this provider (./step-up.ts).
 */
export type SignInPurpose = "console" | "test" | "broker" | "stepup";

/** For purpose "broker": the application's authorization request, answered after the IdP comes back. */
export interface BrokerRequest {
  applicationId: string;
  redirectUri: string;
  /** The client's `state`, echoed back verbatim (may be null: it is optional in RFC 6749). */
  clientState: string | null;
  /** S256 code_challenge of the client's PKCE verifier. */
  codeChallenge: string;
}

/** A sign-in we sent to an IdP and have not seen come back. One row of `sso_signin_requests`. */
export interface PendingSignIn {
  id: string;
  tenantId: string;
  providerId: string;
  protocol: SsoProtocol;
  purpose: SignInPurpose;
  /** Random, URL-safe: OIDC `state` and SAML `RelayState`; how the callback finds this row. */
  state: string;
  /** OIDC: the nonce sent and expected back in the id_token. */
  nonce: string;
  /** OIDC: the PKCE code_verifier (the challenge sent is its S256). */
  codeVerifier: string;
  /** SAML: the AuthnRequest ID (starts with "_", an xsd:ID); InResponseTo must equal it. */
  requestId: string;
  /** Console: a same-site path to land on after sign-in (already checked by safeCallbackPath). */
  returnTo: string | null;
  /** Test sign-in: the admin who started it (only they may see the result). */
  initiatedBy: string | null;
  /** The email typed on the login page, when there was one (sent as login_hint). */
  loginHint: string | null;
  broker: BrokerRequest | null;
  createdAt: Date;
  expiresAt: Date;
}

/** A provider as the protocol halves see it: configuration only, secrets decrypted. */
export interface SignInProvider {
  id: string;
  tenantId: string;
  providerType: ProviderType;
  protocol: SsoProtocol;
  name: string;
  enabled: boolean;
  /** Null when the (SAML) metadata was uploaded. */
  metadataUrl: string | null;
  domains: string[];
  /** What each of `domains` allows now (server/domains/routing.ts): routing, and auto-join. */
  domainAccess: ReadonlyMap<string, DomainAccess>;
  defaultRole: TenantRole;
  allowIdpInitiated: boolean;
  /** azure_ad: the Entra ID directories sign-ins may come from (lower-case tenant ids); empty: any. */
  entraTenantIds: string[];
  /** OIDC only; null for SAML or when not set. */
  clientId: string | null;
  /** OIDC only, decrypted; null for SAML or when not set. Never log it. */
  clientSecret: string | null;
  /** OIDC only: the secret was dropped by a metadata URL change and must be entered again. */
  clientSecretDropped: boolean;
}

/** One protocol's half of the flow. */
export interface ProtocolHandler {
  /**
   * The URL to send the browser to (the IdP's authorization endpoint / SAML SSO URL with a
   * request). Throws `SsoRefused` (metadata, not_configured, …) when it cannot be built.
   */
  begin(provider: SignInProvider, pending: PendingSignIn): Promise<string>;
}

const handlers = new Map<SsoProtocol, ProtocolHandler>();

/** Called once per protocol by server/sso/signin/handlers.ts (the one place that imports them all). */
export function registerProtocol(protocol: SsoProtocol, handler: ProtocolHandler): void {
  handlers.set(protocol, handler);
}

export function handlerFor(protocol: SsoProtocol): ProtocolHandler {
  const handler = handlers.get(protocol);
  if (!handler) throw new SsoRefused("unsupported", `${protocol.toUpperCase()} sign-in is not available on this server`);
  return handler;
}

/** What a protocol route hands to the spine. */
export type SignInOutcome = { ok: true; profile: SsoProfile } | { ok: false; error: SsoRefused };

/**
 * What the route does with the browser after completion: redirect to `location` and, when
 * `session` is set, issue the console session cookie first (the route owns cookies; the spine
 * knows nothing of HTTP). The session, already recorded (server/auth/sessions.ts), carries the SSO
 * restriction: `ssoTenantId`.
 */
export interface SignInResult {
  location: string;
  session: { userId: string; sessionId: string; ssoTenantId: string; providerId: string; subject?: string } | null;
}

/**
 * The completion step every protocol route calls. `pending` is null for an unsolicited (SAML
 * IdP-initiated) response that the provider allows. Writes `user.login` (method "sso") or
 * `sso.login_failed`; for purpose "test" stores the result for the admin and creates nothing.
 */
export type CompleteSignIn = (
  db: Database,
  pending: PendingSignIn | null,
  provider: SignInProvider,
  outcome: SignInOutcome,
  request: RequestInfo,
) => Promise<SignInResult>;

/**
 * Consumes the pending request whose `state` (OIDC) / `RelayState` (SAML) this is, for this provider,
 * started by a browser holding one of `bindings`: at most one caller ever gets it. Null when
 * unknown, already used or started elsewhere; throws `SsoRefused("expired_request")` when it is
 * older than 10 minutes. Routes do not call it directly: `finishCallback` (./callback.ts) does.
 */
export type TakePendingSignIn = (db: Database, state: string, providerId: string, bindings: string[]) => Promise<PendingSignIn | null>;
