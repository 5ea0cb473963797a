/**
 * The OAuth 2.0 wire format of the OAuth broker's endpoints (RFC 6749): error redirects to the client
 * (§4.1.2.1), the error page shown instead when the client or its redirect_uri cannot be trusted,
 * and the JSON errors of the token and profile endpoints (§5.2, RFC 6750 §3).
 */
import { createHash } from "node:crypto";

export type AuthorizeError = "invalid_request" | "unauthorized_client" | "access_denied" | "unsupported_response_type" | "server_error";
export type TokenError = "invalid_request" | "invalid_client" | "invalid_grant" | "unsupported_grant_type";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** `uri` with these query parameters added (its own query kept, as RFC 6749 §3.1.2 asks). */
export function withQuery(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return url.toString();
}

export function redirectTo(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/** An authorization error sent back to the client's (registered) redirect_uri. */
export function errorLocation(redirectUri: string, error: AuthorizeError, description: string, state: string | null): string {
  return withQuery(redirectUri, { error, error_description: description, state });
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/**
 * Unknown client, or a redirect_uri it did not register: never redirect (that would make us an
 * open redirector). A 400 page for people, JSON for programs.
 */
export function authorizeErrorPage(req: Request, error: "invalid_request" | "invalid_client", description: string): Response {
  const headers = { ...NO_STORE, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };
  if (!(req.headers.get("accept") ?? "").includes("text/html")) {
    return Response.json({ error, error_description: description }, { status: 400, headers });
  }
  const html =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Sign-in request refused</title></head><body><main><h1>Sign-in request refused</h1>` +
    `<p>The application sent an authorization request we cannot answer: ${escapeHtml(description)}.</p>` +
    `<p>Error code: <code>${error}</code>. Nothing was sent back to the application; contact its owner.</p></main></body></html>`;
  return new Response(html, {
    status: 400,
    headers: {
      ...headers,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
  });
}

/** A token endpoint error (RFC 6749 §5.2): invalid_client is a 401 asking for Basic credentials. */
export function tokenError(error: TokenError, description: string): Response {
  const headers: Record<string, string> = { ...NO_STORE };
  if (error === "invalid_client") headers["WWW-Authenticate"] = 'Basic realm="sso", charset="UTF-8"';
  return Response.json({ error, error_description: description }, { status: error === "invalid_client" ? 401 : 400, headers });
}

/** The profile endpoint's refusal of a missing, bad or expired access token (RFC 6750 §3). */
export function invalidToken(description: string | null): Response {
  const challenge = description ? `Bearer realm="sso", error="invalid_token", error_description="${description}"` : 'Bearer realm="sso"';
  return Response.json(
    { error: "invalid_token", error_description: description ?? "an access token is required" },
    { status: 401, headers: { ...NO_STORE, "WWW-Authenticate": challenge } },
  );
}

export function jsonNoStore(body: unknown): Response {
  return Response.json(body, { headers: NO_STORE });
}

/** PKCE S256 (RFC 7636 §4.2): BASE64URL(SHA256(verifier)). */
export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/** A code_challenge of method S256 is the 43-character base64url of a SHA-256. */
export const isS256Challenge = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value);

/** RFC 7636 §4.1: 43–128 unreserved characters. */
export const isCodeVerifier = (value: string) => /^[A-Za-z0-9._~-]{43,128}$/.test(value);

/** Each parameter once (RFC 6749 §3.1: "MUST NOT be included more than once"): the first repeated name, or null. */
export function repeatedParameter(params: URLSearchParams): string | null {
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}
