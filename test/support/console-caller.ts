/**
 * The console's tRPC procedures called in-process, with the context its route builds from the
 * request (createConsoleContext): the session cookie says who is calling.
 */
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { encode } from "next-auth/jwt";
import { createCallerFactory } from "../../server/trpc/init.ts";
import { appRouter } from "../../server/app/router.ts";
import { createConsoleContext } from "../../server/trpc/create-context.ts";
import { database } from "../../server/db/client.ts";
import { startSession } from "../../server/auth/sessions.ts";
import type { Principal } from "../../server/auth/principal.ts";
import { sessionPrincipal } from "../../server/auth/sessions.ts";

const createCaller = createCallerFactory(appRouter);

/** A caller whose requests carry these cookies (a session from a real sign-in, or a made one). */
export async function consoleCaller(cookieHeader: string) {
  const req = new Request("http://127.0.0.1/api/trpc/x", { headers: { cookie: cookieHeader } });
  return createCaller(await createConsoleContext(req, "test"));
}

/**
 * A live console session of a user, recorded as a password sign-in records it (its row in
 * console_sessions, server/auth/sessions.ts); `sid` names it. Answers its id.
 */
export async function recordSession(userId: string, sid: string = randomUUID()): Promise<string> {
  const { sql } = await database();
  // A test may name the same session twice (consoleAs): the first call recorded it.
  const [known] = await sql.query(`SELECT 1 FROM console_sessions WHERE id = $1 AND user_id = $2::uuid`, [sid, userId]);
  return known ? sid : startSession(sql, { userId, id: sid, request: { ip: "127.0.0.1", userAgent: "vitest" } });
}

/** The principal of a live password session of this user, as a console request would resolve it. */
export async function sessionPrincipalOf(userId: string, sid?: string): Promise<Principal> {
  const sessionId = await recordSession(userId, sid);
  const principal = await sessionPrincipal((await database()).sql, { userId, sessionId });
  if (!principal) throw new Error(`no principal for the session just recorded for ${userId}`);
  return principal;
}

/** A plain console session cookie for a user (as a password sign-in would give), its session recorded; `sid` names it. */
export async function passwordSessionCookie(userId: string, sid: string = randomUUID()): Promise<string> {
  await recordSession(userId, sid);
  const value = await encode({ token: { sub: userId, sid }, secret: process.env.NEXTAUTH_SECRET! });
  return `next-auth.session-token=${value}`;
}

/** A caller signed in as this user with a password session, `session-<userId>`. */
export async function consoleAs(userId: string) {
  return consoleCaller(await passwordSessionCookie(userId, `session-${userId}`));
}

/** The tRPC error code a call fails with, or undefined when it succeeds. */
export async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as TRPCError).code;
  }
}
