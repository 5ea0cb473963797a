/** next-auth for the console: email + password (Credentials), JWT session cookie. */
import { randomUUID } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { database } from "../db/client.ts";
import { clock } from "../clock.ts";
import { secrets } from "../secrets/store.ts";
import { requestInfoFromHeaders } from "../contract/request.ts";
import { signIn } from "./login.ts";
import { RATE_LIMITED_PREFIX } from "./schemas.ts";

export function authOptions(): NextAuthOptions {
  return {
    secret: secrets().nextauthSecret,
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
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
        if (user) {
          token.sub = user.id;
          // A stable id for this console session: step-up is attached to it.
          token.sid = randomUUID();
          // When this session signed in (ms): a later password reset voids it.
          token.signed_in_at = clock.now().getTime();
        }
        return token;
      },
      session({ session, token }) {
        if (session.user) {
          const user = session.user as { id?: string; ssoTenantId?: string | null; signedInAt?: number };
          user.id = token.sub;
          // Set by an SSO sign-in (server/sso/signin/session.ts): the session's one tenant.
          user.ssoTenantId = typeof token.sso_tenant_id === "string" ? token.sso_tenant_id : null;
          user.signedInAt = typeof token.signed_in_at === "number" ? token.signed_in_at : undefined;
        }
        return session;
      },
    },
  };
}
