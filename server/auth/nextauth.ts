/** next-auth for the console: email + password (Credentials), JWT session cookie. */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { database } from "../db/client.ts";
import { secrets } from "../secrets.ts";
import { checkCredentials } from "./users.ts";

export function authOptions(): NextAuthOptions {
  return {
    secret: secrets().nextauthSecret,
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const db = await database();
          const user = await checkCredentials(db.prisma, credentials.email, credentials.password);
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        if (session.user) (session.user as { id?: string }).id = token.sub;
        return session;
      },
    },
  };
}
