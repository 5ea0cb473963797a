/** The console's tRPC procedures called in-process as a signed-in user (a session principal). */
import { TRPCError } from "@trpc/server";
import { createCallerFactory } from "../../server/trpc/init.ts";
import { appRouter } from "../../server/app/router.ts";
import { database } from "../../server/db/client.ts";
import { sessionPrincipal } from "../../server/auth/principal.ts";

const createCaller = createCallerFactory(appRouter);

export async function consoleAs(userId: string) {
  const dbh = await database();
  const principal = await sessionPrincipal(dbh.prisma, userId, `session-${userId}`);
  return createCaller({
    db: dbh,
    principal,
    authError: principal ? null : "missing",
    request: { requestId: "test", ip: "127.0.0.1", userAgent: "vitest" },
    url: new URL("http://localhost/api/trpc"),
    response: { headers: {} },
  });
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
