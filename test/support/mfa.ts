/**
 * Second factors through the real server: a console session signed in with next-auth's own
 * options, the console's tRPC calls, and TOTP codes computed by otpauth from the enrolled secret.
 */
import { encode } from "next-auth/jwt";
import { Secret, TOTP } from "otpauth";
import { authOptions } from "../../server/account/nextauth.ts";
import { clock } from "../../server/clock.ts";
import { secrets } from "../../server/secrets/store.ts";

/** A console call over HTTP with this cookie, as the browser's tRPC client makes it. */
export async function trpcCall(baseUrl: string, cookie: string, procedure: string, input: unknown = {}, method: "GET" | "POST" = "POST") {
  const url = `${baseUrl}/api/trpc/${procedure}${method === "GET" ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ""}`;
  const res = await fetch(url, {
    method,
    headers: { cookie, origin: baseUrl, ...(method === "POST" ? { "content-type": "application/json" } : {}) },
    ...(method === "POST" ? { body: JSON.stringify(input) } : {}),
  });
  const body = (await res.json()) as {
    result?: { data: unknown };
    error?: { message: string; data?: { appCode?: string; errors?: { path: string; message: string }[] } };
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, data: body.result?.data as any, error: body.error };
}

type Authorize = (credentials: Record<string, string>, req: unknown) => Promise<{ id: string } | null>;

/**
 * A password sign-in through next-auth's Credentials authorize (what POST
 * /api/auth/callback/credentials runs), then its jwt callback and the cookie it encodes. Answers
 * the cookie, or the refusal: `null` (wrong password) or the error next-auth hands the form.
 */
export async function consoleSignIn(
  email: string,
  password: string,
  second: { totp_code?: string; recovery_code?: string } = {},
): Promise<{ cookie: string } | { refused: string }> {
  const options = authOptions();
  const authorize = (options.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;
  let user: { id: string } | null;
  try {
    user = await authorize({ email, password, ...second }, { headers: { "user-agent": "vitest", "x-forwarded-for": "203.0.113.41" } });
  } catch (error) {
    return { refused: (error as Error).message };
  }
  if (!user) return { refused: "invalid" };
  const token = await options.callbacks!.jwt!({ token: { sub: user.id }, user: user as never, account: null } as never);
  return { cookie: `next-auth.session-token=${await encode({ token, secret: secrets().nextauthSecret })}` };
}

export function cookieOf(result: { cookie: string } | { refused: string }): string {
  if (!("cookie" in result)) throw new Error(`sign-in refused: ${result.refused}`);
  return result.cookie;
}

/** The code an authenticator app shows now (the server's clock). */
export function totpCode(secret: string): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now().getTime() });
}

/**
 * Moves the server's clock on by one TOTP step (30 s) from where it is, so the next code is a new
 * one: a code is accepted once. Call `resetClock` after the test.
 */
export function nextTotpStep(): void {
  const at = clock.now().getTime() + 30_000;
  clock.now = () => new Date(at);
}
