/**
 * The OAuth broker's entry: every broker sign-in starts here.
 *
 * One name per concept, in identifiers, comments and file names of the feature: it is the *OAuth
 * broker* (`broker`: server/sso/broker, components/sso-broker, BrokerRequest, sign-in purpose
 * "broker"); what signs people in through it is an *application* (`application`; `SsoApplication…`
 * only where the name mirrors the REST resource /sso/applications and its schema ids). "OAuth 2.0"
 * names the protocol it speaks (oauth.ts, RFC 6749's wire format), not the feature; "app" is this
 * control plane (APP_URL), never an application. Public names keep their spelling whatever this
 * says: tables (sso_applications, sso_authorization_codes, sso_access_tokens), URL paths
 * (/api/sso/{authorize,token,profile}, /api/v1/sso/applications, the console's /applications),
 * OpenAPI tags, summaries, descriptions and ids ("SSO OAuth broker", "SSO applications",
 * SsoApplication, BrokerProfile), event kinds (sso.broker_login, sso.application_*) and the
 * sso.broker_grants_purge job.
 *
 * GET /api/sso/authorize: an application asks us to sign a person in (RFC 6749 §4.1.1 with PKCE
 * S256, RFC 7636). The client and its exact redirect_uri are checked first: when either is wrong
 * nothing is redirected (an error page instead). Every other problem goes back to the redirect_uri
 * as `error`, `error_description`, `state`. Then the provider is chosen (provider_id, tenant_id,
 * domain or login_hint), a pending sign-in of purpose `broker` is stored, bound to this browser,
 * and the browser goes to the IdP through the same protocol halves as the console's sign-in.
 */
import type { Database } from "../../db/client.ts";
import type { RequestInfo } from "../../auth/principal.ts";
import { isUuid } from "../../db/ids.ts";
import { recordRefusal } from "../signin/refusal.ts";
import { newBinding, newPending, storePending } from "../signin/pending.ts";
import { signInProviderById, signInProviderForEmail } from "../signin/providers.ts";
import { handlerFor, SsoRefused, type RefusalReason, type SignInProvider } from "../signin/protocol.ts";
import { cookieBinding } from "../signin/binding.ts";
import { applicationByClientId } from "./applications.ts";
import { errorLocation, isS256Challenge, repeatedParameter, type AuthorizeError } from "./oauth.ts";
import "../signin/handlers.ts";

export const MAX_STATE_LENGTH = 1024;

export type Authorized =
  /** Nothing may go to the client: show this error (400). */
  | { kind: "refused"; error: "invalid_request" | "invalid_client"; description: string }
  /** Redirect the browser (to the IdP, or back to the client with an error); set `binding` when given. */
  | { kind: "redirect"; location: string; binding: string | null };

class AuthorizeProblem extends Error {
  constructor(
    readonly error: AuthorizeError,
    readonly description: string,
  ) {
    super(description);
  }
}

/** What a refusal before the IdP tells the client (the reason itself is audited). */
const ERROR_OF: Partial<Record<RefusalReason, AuthorizeError>> = {
  unknown_domain: "invalid_request",
  unknown_provider: "invalid_request",
  disabled: "access_denied",
  domain_mismatch: "access_denied",
  domain_not_verified: "access_denied",
};

export async function authorize(db: Database, request: RequestInfo, params: URLSearchParams): Promise<Authorized> {
  const repeated = repeatedParameter(params);
  const clientId = params.get("client_id") ?? "";
  const redirectUri = params.get("redirect_uri") ?? "";
  if (repeated === "client_id" || repeated === "redirect_uri") {
    return { kind: "refused", error: "invalid_request", description: `${repeated} was sent more than once` };
  }
  const application = await applicationByClientId(db, clientId);
  if (!application) return { kind: "refused", error: "invalid_client", description: "unknown client_id" };
  if (!redirectUri) return { kind: "refused", error: "invalid_request", description: "redirect_uri is required" };
  if (!application.redirectUris.includes(redirectUri)) {
    return { kind: "refused", error: "invalid_request", description: "redirect_uri is not registered for this client (exact match)" };
  }

  // From here on the redirect_uri is trusted: errors go back to it.
  const rawState = params.get("state");
  const state = rawState !== null && rawState.length <= MAX_STATE_LENGTH ? rawState : null;
  let provider: SignInProvider | null = null;
  try {
    if (repeated) throw new AuthorizeProblem("invalid_request", `${repeated} was sent more than once`);
    if (rawState !== null && rawState.length > MAX_STATE_LENGTH) {
      throw new AuthorizeProblem("invalid_request", `state must be at most ${MAX_STATE_LENGTH} characters`);
    }
    const responseType = params.get("response_type");
    if (!responseType) throw new AuthorizeProblem("invalid_request", "response_type is required");
    if (responseType !== "code") throw new AuthorizeProblem("unsupported_response_type", "only response_type=code is supported");
    const challenge = params.get("code_challenge");
    if (!challenge) throw new AuthorizeProblem("invalid_request", "code_challenge is required (PKCE)");
    if (params.get("code_challenge_method") !== "S256") {
      throw new AuthorizeProblem("invalid_request", "code_challenge_method must be S256");
    }
    if (!isS256Challenge(challenge))
      throw new AuthorizeProblem("invalid_request", "code_challenge must be a base64url SHA-256 (43 characters)");

    const loginHint = params.get("login_hint")?.trim().slice(0, 320) || null;
    provider = await chooseProvider(db, params, loginHint);
    if (!provider.enabled) throw new SsoRefused("disabled", "this SSO provider is disabled");
    const pending = newPending({
      tenantId: provider.tenantId,
      providerId: provider.id,
      protocol: provider.protocol,
      purpose: "broker",
      loginHint,
      broker: { applicationId: application.id, redirectUri, clientState: state, codeChallenge: challenge },
    });
    const location = await handlerFor(provider.protocol).begin(provider, pending);
    const binding = newBinding();
    await storePending(db, pending, cookieBinding(binding));
    return { kind: "redirect", location, binding };
  } catch (error) {
    if (error instanceof AuthorizeProblem) {
      return { kind: "redirect", location: errorLocation(redirectUri, error.error, error.description, state), binding: null };
    }
    if (!(error instanceof SsoRefused)) throw error;
    await recordRefusal(db, request, error, { tenantId: provider?.tenantId ?? null, providerId: provider?.id ?? null, purpose: "broker" });
    const code = ERROR_OF[error.reason] ?? "server_error";
    return { kind: "redirect", location: errorLocation(redirectUri, code, `${error.reason}: ${error.detail}`, state), binding: null };
  }
}

/**
 * The provider the request names: `provider_id`, else the one enabled provider of `tenant_id`,
 * else the enabled provider of `domain` or of the `login_hint` email's domain. With `tenant_id`
 * and another selector, the provider must be that tenant's.
 */
async function chooseProvider(db: Database, params: URLSearchParams, loginHint: string | null): Promise<SignInProvider> {
  const providerId = params.get("provider_id");
  const tenantId = params.get("tenant_id");
  const domain = params.get("domain")?.trim().toLowerCase();
  let provider: SignInProvider;
  if (providerId) {
    provider = await signInProviderById(db, providerId);
  } else if (domain || loginHint) {
    provider = await signInProviderForEmail(db, domain ? `user@${domain}` : loginHint!);
  } else if (tenantId) {
    return tenantProvider(db, tenantId);
  } else {
    throw new AuthorizeProblem("invalid_request", "one of provider_id, tenant_id, domain or login_hint is required");
  }
  if (tenantId && provider.tenantId !== tenantId) throw new SsoRefused("unknown_provider", "that provider is not the tenant's");
  return provider;
}

async function tenantProvider(db: Database, tenantId: string): Promise<SignInProvider> {
  const rows = isUuid(tenantId)
    ? await db.prisma.ssoProvider.findMany({ where: { tenantId }, select: { id: true, enabled: true }, take: 50 })
    : [];
  const enabled = rows.filter((r) => r.enabled);
  if (enabled.length === 1) return signInProviderById(db, enabled[0]!.id);
  if (enabled.length > 1) {
    throw new AuthorizeProblem("invalid_request", "the tenant has several SSO providers: name one with provider_id or domain");
  }
  if (rows.length) throw new SsoRefused("disabled", "the tenant's SSO provider is disabled");
  throw new SsoRefused("unknown_provider", "the tenant has no SSO provider");
}
