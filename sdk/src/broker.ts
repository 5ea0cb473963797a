/**
 * The OAuth broker, from the side of an application of the platform (docs/sso.md: OAuth broker): send the
 * person's browser to `authorizationUrl(...).url` (keep `state` and `codeVerifier` in their session),
 * check `state` on the callback, then `exchangeCode` for the access token and profile; `profile`
 * reads it again while the token lives. PKCE (S256) always.
 */
import { createHash, randomBytes } from "node:crypto";
import type { components, operations } from "./schema.js";

type AuthorizeQuery = operations["sso-authorize"]["parameters"]["query"];
export type BrokerProfile = components["schemas"]["BrokerProfile"];
export type BrokerToken = operations["sso-token"]["responses"][200]["content"]["application/json"];
export type OAuthErrorBody = components["schemas"]["OAuthError"];

export interface AuthorizationUrlInput {
  /** The app's origin (the broker lives at /api/sso/*). */
  baseUrl: string;
  clientId: string;
  redirectUri: string;
  /** Which provider signs the person in: one of these (or none, to let the broker ask). */
  providerId?: string;
  tenantId?: string;
  domain?: string;
  loginHint?: string;
  /** Generated when not given. */
  state?: string;
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  /** Keep it server-side until the callback: `exchangeCode` needs it. */
  codeVerifier: string;
}

export function authorizationUrl(input: AuthorizationUrlInput): AuthorizationRequest {
  const codeVerifier = randomBytes(48).toString("base64url");
  const state = input.state ?? randomBytes(16).toString("base64url");
  const query: AuthorizeQuery = {
    response_type: "code",
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    state,
    code_challenge: createHash("sha256").update(codeVerifier).digest("base64url"),
    code_challenge_method: "S256",
    ...(input.providerId ? { provider_id: input.providerId } : {}),
    ...(input.tenantId ? { tenant_id: input.tenantId } : {}),
    ...(input.domain ? { domain: input.domain } : {}),
    ...(input.loginHint ? { login_hint: input.loginHint } : {}),
  };
  const url = new URL("/api/sso/authorize", input.baseUrl);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  return { url: url.toString(), state, codeVerifier };
}

/** A refusal of the broker's token or profile endpoint (RFC 6749 §5.2). */
export class OAuthError extends Error {
  override readonly name = "OAuthError";
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(`${status} ${error}: ${description}`);
  }
}

/** What the callback received: refuses a `state` that is not the one sent, and an `error` answer. */
export function callbackCode(callbackUrl: string | URL, expectedState: string): string {
  const params = new URL(callbackUrl).searchParams;
  if (params.get("state") !== expectedState) throw new OAuthError(400, "invalid_request", "state does not match the one sent");
  const error = params.get("error");
  if (error) throw new OAuthError(400, error, params.get("error_description") ?? "");
  const code = params.get("code");
  if (!code) throw new OAuthError(400, "invalid_request", "no code in the callback");
  return code;
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as Partial<OAuthErrorBody> & T;
  if (!response.ok) throw new OAuthError(response.status, body.error ?? `http_${response.status}`, body.error_description ?? "");
  return body;
}

export interface ExchangeCodeInput {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  code: string;
  codeVerifier: string;
  fetch?: typeof globalThis.fetch;
}

/** POST /api/sso/token (client_secret_basic): the access token (10 minutes) and the profile. */
export async function exchangeCode(input: ExchangeCodeInput): Promise<BrokerToken> {
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code: input.code,
    redirect_uri: input.redirectUri,
    code_verifier: input.codeVerifier,
  });
  const basic = Buffer.from(`${encodeURIComponent(input.clientId)}:${encodeURIComponent(input.clientSecret)}`).toString("base64");
  const response = await (input.fetch ?? fetch)(new URL("/api/sso/token", input.baseUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
    body: form,
  });
  return answer<BrokerToken>(response);
}

/** GET /api/sso/profile with the access token. */
export async function profile(input: { baseUrl: string; accessToken: string; fetch?: typeof globalThis.fetch }): Promise<BrokerProfile> {
  const response = await (input.fetch ?? fetch)(new URL("/api/sso/profile", input.baseUrl), {
    headers: { authorization: `Bearer ${input.accessToken}` },
  });
  return answer<BrokerProfile>(response);
}
