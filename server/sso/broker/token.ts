/**
 * POST /api/sso/token (RFC 6749 §4.1.3, §3.2.1): the application authenticates (client_secret_basic
 * or client_secret_post, never both), exchanges its one-time code with the PKCE code_verifier for
 * an access token, and receives the profile with it. Every answer is `Cache-Control: no-store`.
 */
import type { Database } from "../../db/client.ts";
import { applicationByClientId, secretMatches, type ApplicationRow } from "./applications.ts";
import { issueAccessToken, redeemCode } from "./grants.ts";
import { isCodeVerifier, jsonNoStore, repeatedParameter, s256, tokenError } from "./oauth.ts";

const MAX_BODY_CHARS = 16 * 1024;

type ClientCredentials = { id: string; secret: string } | { problem: Response };

/** RFC 6749 §2.3.1: Basic credentials are each form-urlencoded before base64. */
function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

function credentialsOf(req: Request, form: URLSearchParams): ClientCredentials {
  const header = req.headers.get("authorization");
  const inBody = form.has("client_secret");
  if (header) {
    if (inBody) return { problem: tokenError("invalid_request", "use one client authentication method, not both") };
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    const decoded = match ? Buffer.from(match[1]!, "base64").toString("utf8") : "";
    const colon = decoded.indexOf(":");
    const id = colon > 0 ? formDecode(decoded.slice(0, colon)) : null;
    const secret = colon > 0 ? formDecode(decoded.slice(colon + 1)) : null;
    if (!id || secret === null) return { problem: tokenError("invalid_client", "malformed Basic credentials") };
    if (form.has("client_id") && form.get("client_id") !== id) {
      return { problem: tokenError("invalid_request", "client_id in the body differs from the Basic credentials") };
    }
    return { id, secret };
  }
  const id = form.get("client_id");
  const secret = form.get("client_secret");
  if (!id || !secret)
    return { problem: tokenError("invalid_client", "client authentication is required (client_secret_basic or client_secret_post)") };
  return { id, secret };
}

async function authenticate(db: Database, credentials: { id: string; secret: string }): Promise<ApplicationRow | null> {
  const application = await applicationByClientId(db, credentials.id);
  return application && secretMatches(application, credentials.secret) ? application : null;
}

export async function tokenEndpoint(db: Database, req: Request): Promise<Response> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get("content-type") ?? "")) {
    return tokenError("invalid_request", "send the parameters as application/x-www-form-urlencoded");
  }
  const body = await req.text().catch(() => null);
  if (body === null || body.length > MAX_BODY_CHARS) return tokenError("invalid_request", "the body could not be read");
  const form = new URLSearchParams(body);
  const repeated = repeatedParameter(form);
  if (repeated) return tokenError("invalid_request", `${repeated} was sent more than once`);

  const credentials = credentialsOf(req, form);
  if ("problem" in credentials) return credentials.problem;
  const application = await authenticate(db, credentials);
  if (!application) return tokenError("invalid_client", "unknown client or wrong client secret");

  const grantType = form.get("grant_type");
  if (!grantType) return tokenError("invalid_request", "grant_type is required");
  if (grantType !== "authorization_code") return tokenError("unsupported_grant_type", "only grant_type=authorization_code is supported");
  for (const name of ["code", "redirect_uri", "code_verifier"]) {
    if (!form.get(name)) return tokenError("invalid_request", `${name} is required`);
  }
  const verifier = form.get("code_verifier")!;
  if (!isCodeVerifier(verifier)) return tokenError("invalid_request", "code_verifier must be 43–128 unreserved characters (RFC 7636)");

  const redeemed = await redeemCode(db, { code: form.get("code")!, applicationId: application.id, redirectUri: form.get("redirect_uri")! });
  if (!redeemed.ok) return tokenError("invalid_grant", redeemed.description);
  // The code is used up either way: a wrong verifier cannot be retried.
  if (s256(verifier) !== redeemed.code.codeChallenge) return tokenError("invalid_grant", "code_verifier does not match the code_challenge");

  const token = await issueAccessToken(db, redeemed.code);
  return jsonNoStore({ access_token: token.value, token_type: "Bearer", expires_in: token.expiresIn, profile: redeemed.code.profile });
}
