/**
 * The shared tail of every protocol's return route (OIDC callback, SAML ACS): find the provider,
 * take the pending request this browser started, let the protocol half validate the response, run
 * the completion, and answer the browser's redirect (with the session cookie when signed in).
 */
import { database } from "../../db/client.ts";
import { appUrl } from "../../env.ts";
import { requestIdOf, requestInfo } from "../../contract/request.ts";
import { readSessionToken, sessionCookie } from "../../auth/session-token.ts";
import { completeSignIn } from "./complete.ts";
import { loginErrorPath, recordRefusal } from "./refusal.ts";
import { takePendingSignIn } from "./pending.ts";
import { signInProviderById } from "./providers.ts";
import { SsoRefused, type PendingSignIn, type SignInOutcome, type SignInProvider, type SsoProfile } from "./protocol.ts";
import { bindingOf, sessionBinding, userBinding } from "./binding.ts";
import { completeSsoStepUp, type CallbackSession } from "./step-up.ts";
import "./handlers.ts";

/**
 * The bindings this browser holds: its binding cookie, its signed-in user (Test sign-in) and its
 * console session (SSO step-up); and that session, for a step-up to mark.
 */
async function bindingsOf(req: Request): Promise<{ bindings: string[]; session: CallbackSession | null }> {
  const bindings: string[] = [];
  const cookie = bindingOf(req);
  if (cookie) bindings.push(cookie);
  const session = await readSessionToken(req);
  if (!session) return { bindings, session: null };
  bindings.push(userBinding(session.userId));
  if (session.sessionId) bindings.push(sessionBinding(session.sessionId));
  return {
    bindings,
    session: { userId: session.userId, sessionId: session.sessionId, providerId: session.ssoProviderId, subject: session.ssoSubject },
  };
}

function redirect(location: string, cookies: string[]): Response {
  const headers = new Headers({ location: new URL(location, `${appUrl()}/`).toString(), "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}

const CLEAR_BINDING = "cp_sso_binding=; Path=/api/sso; HttpOnly; SameSite=Lax; Max-Age=0";

export interface CallbackInput {
  providerId: string;
  /** OIDC `state` / SAML `RelayState` ("" when absent). */
  state: string;
  /**
   * What to refuse with when no pending request matches; null lets the protocol half go on
   * without one (a SAML IdP-initiated response, which it then allows or refuses itself).
   */
  missing: SsoRefused | null;
  validate(provider: SignInProvider, pending: PendingSignIn | null): Promise<SsoProfile>;
}

export async function finishCallback(req: Request, input: CallbackInput): Promise<Response> {
  const db = await database();
  const request = requestInfo(req, requestIdOf(req));
  let provider: SignInProvider;
  try {
    provider = await signInProviderById(db, input.providerId);
  } catch (error) {
    if (!(error instanceof SsoRefused)) throw error;
    await recordRefusal(db, request, error, { tenantId: null, providerId: null, purpose: null });
    return redirect(loginErrorPath(error.reason), [CLEAR_BINDING]);
  }
  let pending: PendingSignIn | null = null;
  let outcome: SignInOutcome;
  const { bindings, session } = await bindingsOf(req);
  try {
    pending = await takePendingSignIn(db, input.state, provider.id, bindings);
    if (!pending && input.missing) throw input.missing;
    outcome = { ok: true, profile: await input.validate(provider, pending) };
  } catch (error) {
    if (!(error instanceof SsoRefused)) throw error;
    outcome = { ok: false, error };
  }
  if (pending?.purpose === "stepup") {
    return redirect(await completeSsoStepUp(db, pending, provider, outcome, request, session), [CLEAR_BINDING]);
  }
  const result = await completeSignIn(db, pending, provider, outcome, request);
  const cookies = [CLEAR_BINDING];
  if (result.session) {
    const user = await db.prisma.user.findUniqueOrThrow({ where: { id: result.session.userId }, select: { email: true } });
    cookies.push(await sessionCookie({ ...result.session, email: user.email }));
  }
  return redirect(result.location, cookies);
}
