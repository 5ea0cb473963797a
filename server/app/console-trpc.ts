/**
 * The console's tRPC endpoint, served at two places with the same router: `/api/trpc` for signed-in
 * users (the session cookie) and `/api/setup/trpc` for a setup link's guided flow (the setup
 * cookie, server/setup-links/context.ts). Each reads only its own credential, so an admin's
 * session and a setup session in one browser never stand in for each other.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "./router.ts";
import type { Context } from "../trpc/context.ts";
import { requestIdOf } from "../contract/request.ts";
import { decodeUtf8 } from "../contract/fields.ts";
import { problemResponse } from "../contract/problem.ts";
import { log, errorFields } from "../log.ts";

export async function handleConsoleTrpc(
  request: Request,
  endpoint: "/api/trpc" | "/api/setup/trpc",
  createContext: (req: Request, requestId: string) => Promise<Context>,
): Promise<Response> {
  const requestId = requestIdOf(request);
  // Bodies are decoded strictly, as on the REST edge: tRPC's lenient decoder would turn bytes that
  // are not UTF-8 into U+FFFD and store those (NUL and lone surrogates are refused by the procedures).
  let req = request;
  if (request.body) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (decodeUtf8(bytes) === null) {
      const problem = {
        code: "invalid_request" as const,
        detail: "The request body is not valid UTF-8",
        errors: [{ path: "body", message: "is not valid UTF-8" }],
      };
      return problemResponse(problem, requestId, new URL(request.url).origin);
    }
    req = new Request(request.url, { method: request.method, headers: request.headers, body: bytes });
  }
  return fetchRequestHandler({
    endpoint,
    req,
    router: appRouter,
    createContext: () => createContext(req, requestId),
    responseMeta: ({ ctx }) => {
      const headers = new Headers({ "X-Request-Id": requestId });
      // A procedure that sets a cookie (the password change's new session, a Test sign-in's binding) hands it on.
      const cookie = ctx?.response.headers["Set-Cookie"];
      if (cookie) headers.set("Set-Cookie", cookie);
      return { headers };
    },
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR" && error.cause?.name !== "AppError") {
        log.error("console call failed", { request_id: requestId, path, ...errorFields(error.cause ?? error) });
      }
    },
  });
}
