/**
 * The OIDC relying party, on openid-client (certified): authorization code + PKCE S256 + state +
 * nonce; the library checks the id_token's signature against the OP's JWKS and its iss, aud, exp,
 * iat and nonce. Every request goes through the SSRF guard (customFetch); plain http to a loopback
 * OP is allowed only under OUTBOUND_ALLOW_PRIVATE=true (tests, local development).
 */
import * as oidc from "openid-client";
import { env } from "../../env.ts";
import { safeFetch } from "../../outbound/guard.ts";
import { oidcSpDetails } from "../sp.ts";
import { SsoRefused, type PendingSignIn, type ProtocolHandler, type SignInProvider, type SsoProfile } from "./protocol.ts";
import { refusalOf } from "./oidc-errors.ts";
import { unverifiedEmailRefusal } from "./oidc-email.ts";
import { namesEntraDirectory } from "./entra.ts";

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 1024 * 1024;
const DISCOVERY_TTL_MS = 5 * 60_000;

/** fetch, as openid-client calls it, through the SSRF guard (no redirects, capped, deadline). */
const guardedFetch: oidc.CustomFetch = async (url, options) => {
  const body = options.body;
  const res = await safeFetch(url, {
    method: options.method,
    headers: Object.fromEntries(new Headers(options.headers as HeadersInit).entries()),
    body:
      body === undefined || body === null
        ? undefined
        : typeof body === "string"
          ? body
          : body instanceof URLSearchParams
            ? body.toString()
            : Buffer.from(body as Uint8Array).toString(),
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_BYTES,
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const empty = res.status === 204 || res.status === 304;
  return new Response(empty ? null : new Uint8Array(res.body), { status: res.status, headers });
};

// Discovery documents are cached briefly per URL (a cache only: every instance fetches its own).
const discovered = new Map<string, { at: number; metadata: oidc.ServerMetadata }>();

async function serverMetadata(metadataUrl: string | null): Promise<oidc.ServerMetadata> {
  // OIDC reads its discovery document from a URL; an uploaded document is SAML only.
  if (metadataUrl === null) throw new SsoRefused("metadata", "the provider has no OpenID discovery URL");
  const hit = discovered.get(metadataUrl);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.metadata;
  try {
    const config = await oidc.discovery(new URL(metadataUrl), "discovery", undefined, oidc.None(), {
      [oidc.customFetch]: guardedFetch,
      execute: env().OUTBOUND_ALLOW_PRIVATE ? [oidc.allowInsecureRequests] : [],
      timeout: TIMEOUT_MS / 1000,
    });
    const metadata = config.serverMetadata();
    if (discovered.size > 1000) discovered.clear();
    discovered.set(metadataUrl, { at: Date.now(), metadata });
    return metadata;
  } catch (error) {
    throw new SsoRefused("metadata", `the OpenID discovery document could not be read (${(error as Error).message})`);
  }
}

// The OP's signing keys, per JWKS URL, as openid-client last fetched them (a cache only, per
// instance; the library refetches after 5 minutes, or when a token names a key it does not hold).
// Without it every callback fetched the keys again: one more round trip to the IdP per sign-in.
const jwksCaches = new Map<string, oidc.ExportedJWKSCache>();

function rememberJwks(config: oidc.Configuration): void {
  const uri = config.serverMetadata().jwks_uri;
  const cache = oidc.getJwksCache(config);
  if (!uri || !cache) return;
  if (jwksCaches.size > 1000) jwksCaches.clear();
  jwksCaches.set(uri, cache);
}

function configuration(
  provider: SignInProvider,
  metadata: oidc.ServerMetadata,
  fetchImpl: oidc.CustomFetch = guardedFetch,
): oidc.Configuration {
  if (!provider.clientId) throw new SsoRefused("not_configured", "the provider has no client_id");
  // Not a public client all of a sudden: the IdP behind the new URL gets no credentials until an admin enters them.
  if (provider.clientSecretDropped)
    throw new SsoRefused("not_configured", "the client secret was dropped when the discovery URL changed: enter the client secret again");
  const auth = provider.clientSecret ? oidc.ClientSecretBasic(provider.clientSecret) : oidc.None();
  const config = new oidc.Configuration(metadata, provider.clientId, provider.clientSecret ?? undefined, auth);
  config[oidc.customFetch] = fetchImpl;
  config.timeout = TIMEOUT_MS / 1000;
  if (env().OUTBOUND_ALLOW_PRIVATE) oidc.allowInsecureRequests(config);
  const keys = metadata.jwks_uri ? jwksCaches.get(metadata.jwks_uri) : undefined;
  if (keys) oidc.setJwksCache(config, keys);
  // Without this the library trusts the token endpoint's TLS for the id_token (OIDC Core 3.1.3.7
  // allows it); we verify its signature against the JWKS whatever the transport.
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/**
 * What forces a fresh login at the OP: `max_age=0` (its auth_time is then checked against when the
 * step-up began, ./step-up.ts) and `prompt=login`, except at Google, which rejects that prompt
 * value (it knows none, consent and select_account) and honours max_age.
 */
function reauthentication(provider: SignInProvider): Record<string, string> {
  return provider.providerType === "google_workspace" ? { max_age: "0" } : { prompt: "login", max_age: "0" };
}

export const oidcHandler: ProtocolHandler = {
  async begin(provider, pending) {
    const config = configuration(provider, await serverMetadata(provider.metadataUrl));
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: oidcSpDetails(provider.id).redirect_uri,
      response_type: "code",
      scope: "openid email profile",
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: "S256",
      ...(pending.loginHint ? { login_hint: pending.loginHint } : {}),
      // A step-up must prove the person is there now: no single sign-on from an earlier login.
      ...(pending.purpose === "stepup" ? reauthentication(provider) : {}),
    });
    return url.href;
  },
};

const TEMPLATE = "{tenantid}";
class Captured extends Error {}

/**
 * Microsoft's multi-tenant endpoints (common, organizations) publish the issuer as a template,
 * `https://login.microsoftonline.com/{tenantid}/v2.0`: the id_token's iss names the tenant. The
 * token response is fetched once (first pass, stopped right after the fetch), the tenant read from
 * it, and the library then validates that same response in full against the concrete issuer.
 */
async function grant(provider: SignInProvider, pending: PendingSignIn, callbackUrl: URL) {
  const metadata = await serverMetadata(provider.metadataUrl);
  const checks = {
    pkceCodeVerifier: pending.codeVerifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    idTokenExpected: true,
  };
  if (!metadata.issuer.includes(TEMPLATE)) {
    const config = configuration(provider, metadata);
    return { config, tokens: await oidc.authorizationCodeGrant(config, callbackUrl, checks), templated: false };
  }

  let captured: { body: ArrayBuffer; status: number; headers: Headers } | null = null;
  const capture: oidc.CustomFetch = async (url, options) => {
    const res = await guardedFetch(url, options);
    if (url !== metadata.token_endpoint) return res;
    captured = { body: await res.arrayBuffer(), status: res.status, headers: res.headers };
    throw new Captured();
  };
  const firstPass = new URL(callbackUrl);
  const iss = firstPass.searchParams.get("iss");
  if (iss !== null && !issuerMatchesTemplate(metadata.issuer, iss))
    throw new SsoRefused("issuer", "the authorization response names another issuer");
  // The first pass only gets the token response: it checks iss against the template (done above).
  if (iss !== null) firstPass.searchParams.set("iss", metadata.issuer);
  try {
    await oidc.authorizationCodeGrant(configuration(provider, metadata, capture), firstPass, checks);
  } catch (error) {
    if (!captured) throw error;
  }
  const got = captured as { body: ArrayBuffer; status: number; headers: Headers } | null;
  if (!got) throw new SsoRefused("invalid_response", "no token response");
  const tid = tenantOf(got.body);
  const concrete = { ...metadata, issuer: metadata.issuer.replace(TEMPLATE, tid) };
  const replay: oidc.CustomFetch = async (url, options) =>
    url === metadata.token_endpoint ? new Response(got.body, { status: got.status, headers: got.headers }) : guardedFetch(url, options);
  const config = configuration(provider, concrete, replay);
  return { config, tokens: await oidc.authorizationCodeGrant(config, callbackUrl, checks), templated: true };
}

function issuerMatchesTemplate(template: string, issuer: string): boolean {
  const [before, after] = template.split(TEMPLATE) as [string, string];
  return (
    issuer.startsWith(before) &&
    issuer.endsWith(after) &&
    /^[A-Za-z0-9-]{1,64}$/.test(issuer.slice(before.length, issuer.length - after.length))
  );
}

/** The `tid` claim of the (not yet verified) id_token: only used to name the issuer it must match. */
function tenantOf(body: ArrayBuffer): string {
  try {
    const idToken = (JSON.parse(Buffer.from(body).toString("utf8")) as { id_token?: string }).id_token ?? "";
    const claims = JSON.parse(Buffer.from(idToken.split(".")[1] ?? "", "base64url").toString("utf8")) as { tid?: unknown };
    if (typeof claims.tid === "string" && /^[A-Za-z0-9-]{1,64}$/.test(claims.tid)) return claims.tid;
  } catch {
    // fall through
  }
  throw new SsoRefused("issuer", "the id_token names no tenant (tid) for the provider's {tenantid} issuer");
}

const str = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);

/** Validates the OP's answer (callback URL) against the pending request; the profile, or SsoRefused. */
export async function completeOidc(provider: SignInProvider, pending: PendingSignIn, requestUrl: URL): Promise<SsoProfile> {
  // The library sends the callback URL without its query as redirect_uri: use the one we registered,
  // not the URL this instance was reached at (proxies, TLS offload).
  const callbackUrl = new URL(oidcSpDetails(provider.id).redirect_uri);
  callbackUrl.search = requestUrl.search;
  const error = callbackUrl.searchParams.get("error");
  if (error) {
    const description = (callbackUrl.searchParams.get("error_description") ?? "").slice(0, 200);
    throw new SsoRefused("idp_error", `the identity provider answered ${error.slice(0, 64)}${description ? `: ${description}` : ""}`);
  }
  try {
    const { config, tokens, templated } = await grant(provider, pending, callbackUrl);
    rememberJwks(config);
    const claims = (tokens.claims() ?? {}) as Record<string, unknown>;
    const namedDirectory = namesEntraDirectory(provider, claims, templated);
    let info: Record<string, unknown> = {};
    if (!str(claims.email) && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
      info = (await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub))) as Record<string, unknown>;
    }
    return profileOf({ ...info, ...claims }, provider, namedDirectory);
  } catch (error) {
    throw refusalOf(error);
  }
}

function profileOf(claims: Record<string, unknown>, provider: SignInProvider, namedDirectory: boolean): SsoProfile {
  // Entra ID sends no `email` for many accounts; its sign-in name is then the address.
  const fallback = provider.providerType === "azure_ad" ? (str(claims.preferred_username) ?? str(claims.upn)) : null;
  const email = (str(claims.email) ?? (fallback?.includes("@") ? fallback : null))?.toLowerCase() ?? null;
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email))
    throw new SsoRefused("no_email", "the identity provider sent no email address (ask for the email scope/claim)");
  const unverified = unverifiedEmailRefusal(provider.providerType, claims, namedDirectory);
  if (unverified) throw unverified;
  const groups = Array.isArray(claims.groups) ? claims.groups.filter((g): g is string => typeof g === "string") : [];
  return {
    id: String(claims.sub),
    email,
    first_name: str(claims.given_name),
    last_name: str(claims.family_name),
    groups,
    issuer: String(claims.iss),
    raw_attributes: claims,
  };
}
