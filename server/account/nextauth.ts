/** next-auth for the console: email + password (Credentials), JWT session cookie. */
import { randomUUID } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { database } from "../db/client.ts";
import { secrets } from "../secrets/store.ts";
import { requestInfoFromHeaders } from "../contract/request.ts";
import { signIn } from "./login.ts";
import { RATE_LIMITED_PREFIX } from "./schemas.ts";
import { newSessionClaims, SESSION_MAX_AGE_S, sessionClaimsOf } from "../auth/session-token.ts";

export function authOptions(): NextAuthOptions {
  return {
    secret: secrets().nextauthSecret,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          if (!credentials?.email || !credentials.password) return null;
          const headers = (req?.headers ?? {}) as Record<string, string | undefined>;
          const request = requestInfoFromHeaders((name) => headers[name] ?? null, randomUUID());
          const result = await signIn(await database(), request, credentials.email, credentials.password);
          if (result.ok) return result.user;
          if (result.reason === "rate_limited") throw new Error(`${RATE_LIMITED_PREFIX}${result.retryAfterSeconds}`);
          return null;
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        // A sign-in: the session's claims, as an SSO sign-in writes them too.
        return user ? { ...token, ...newSessionClaims({ userId: user.id }) } : token;
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
