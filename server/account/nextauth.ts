/**
 * next-auth for the console: email + password (Credentials; and the second factor's code when the
 * account has one), a JWT session cookie naming the
 * session's row on the server (server/auth/sessions.ts), which signing out ends.
 */
import { randomUUID } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { database } from "../db/client.ts";
import { secrets } from "../secrets/store.ts";
import { requestInfoFromHeaders } from "../contract/request.ts";
import { signIn } from "./login.ts";
import { MFA_FAILED, MFA_REQUIRED, RATE_LIMITED_PREFIX } from "./schemas.ts";
import type { SecondFactor } from "../auth/mfa.ts";
import { newSessionClaims, SESSION_MAX_AGE_S, sessionClaimsOf } from "../auth/session-token.ts";
import { endSessions, startSession } from "../auth/sessions.ts";

export function authOptions(): NextAuthOptions {
  return {
    secret: secrets().nextauthSecret,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          totp_code: { label: "Authentication code", type: "text" },
          recovery_code: { label: "Recovery code", type: "text" },
        },
        async authorize(credentials, req) {
          if (!credentials?.email || !credentials.password) return null;
          const headers = (req?.headers ?? {}) as Record<string, string | undefined>;
          const request = requestInfoFromHeaders((name) => headers[name] ?? null, randomUUID());
          const db = await database();
          const result = await signIn(db, request, credentials.email, credentials.password, secondFactorOf(credentials));
          if (result.ok) return { ...result.user, sessionId: await startSession(db.sql, { userId: result.user.id, request }) };
          if (result.reason === "rate_limited") throw new Error(`${RATE_LIMITED_PREFIX}${result.retryAfterSeconds}`);
          if (result.reason === "mfa_required") throw new Error(MFA_REQUIRED);
          if (result.reason === "mfa_failed") throw new Error(MFA_FAILED);
          return null;
        },
      }),
    ],
    events: {
      // Signing out ends the session's row, so a copy of the cookie dies with it.
      async signOut({ token }) {
        const claims = sessionClaimsOf(token);
        if (claims?.sessionId)
          await endSessions((await database()).sql, { sessionId: claims.sessionId, userId: claims.userId }, "signed_out");
      },
    },
    callbacks: {
      jwt({ token, user }) {
        // A sign-in: the session's claims, as an SSO sign-in writes them too.
        if (!user) return token;
        // authorize() above recorded the session and handed its id on with the user.
        const { sessionId } = user as Partial<Record<"sessionId", string>>;
        if (!sessionId) throw new Error("a password sign-in without its session row");
        return { ...token, ...newSessionClaims({ userId: user.id, sessionId }) };
      },
      session({ session, token }) {
        // What the browser reads at /api/auth/session (the server reads the cookie itself).
        if (session.user) {
          const claims = sessionClaimsOf(token);
          Object.assign(session.user, {
            id: token.sub,
            ssoTenantId: claims?.ssoTenantId ?? null,
            signedInAt: claims?.signedInAt ?? undefined,
          });
        }
        return session;
      },
    },
  };
}

/** The second factor the sign-in form sent, if any (at most 40 characters are worth reading). */
function secondFactorOf(credentials: Partial<Record<"totp_code" | "recovery_code", string>>): SecondFactor | undefined {
  if (credentials.recovery_code) return { recovery_code: credentials.recovery_code.slice(0, 40) };
  if (credentials.totp_code) return { totp_code: credentials.totp_code.slice(0, 40) };
  return undefined;
}
