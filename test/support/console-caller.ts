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

const createCaller = createCallerFactory(appRouter);

/** A caller whose requests carry these cookies (a session from a real sign-in, or a made one). */
export async function consoleCaller(cookieHeader: string) {
  const req = new Request("http://127.0.0.1/api/trpc/x", { headers: { cookie: cookieHeader } });
  return createCaller(await createConsoleContext(req, "test"));
}

/** A plain console session cookie for a user (as a password sign-in would give); `sid` names the session. */
export async function passwordSessionCookie(userId: string, sid: string = randomUUID()): Promise<string> {
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
